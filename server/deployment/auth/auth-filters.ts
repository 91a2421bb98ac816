import type { MetadataCondition as AuthCondition } from '../store/metadata-filter';
import type { AuthFilters } from './auth-types';

function isCondition(value: AuthCondition | AuthFilters[] | undefined): value is AuthCondition {
  return value !== undefined && !Array.isArray(value);
}

function meets(actual: unknown, condition: AuthCondition): boolean {
  if (typeof condition === 'string') return actual === condition;
  if (condition.$eq !== undefined) return actual === condition.$eq;
  if (condition.$contains !== undefined) {
    if (!Array.isArray(actual)) return false;
    const wanted = Array.isArray(condition.$contains) ? condition.$contains : [condition.$contains];
    return wanted.every((value) => actual.includes(value));
  }
  return true;
}

/**
 * Whether one record's metadata meets `filters`, with the semantics the stores' queries apply
 * (for the one record a path names; searches filter inside their query).
 */
export function matchesFilters(
  metadata: Readonly<Record<string, unknown>>,
  filters: AuthFilters | undefined,
): boolean {
  if (!filters) return true;
  return Object.entries(filters).every(([key, value]) => {
    if (key === '$or') return (filters.$or ?? []).some((each) => matchesFilters(metadata, each));
    if (key === '$and') return (filters.$and ?? []).every((each) => matchesFilters(metadata, each));
    return !isCondition(value) || meets(metadata[key], value);
  });
}
