/**
 * Whether `container` contains `contained`, as PostgreSQL's `jsonb @>` decides it (the platform
 * filters threads, assistants and history by metadata and values this way): objects match on
 * every key of `contained`, arrays on every element, scalars on equality.
 */
export function jsonContains(container: unknown, contained: unknown): boolean {
  if (Array.isArray(contained)) {
    return (
      Array.isArray(container) &&
      contained.every((item) => container.some((candidate) => jsonContains(candidate, item)))
    );
  }
  if (isRecord(contained)) {
    return (
      isRecord(container) &&
      Object.entries(contained).every(([key, value]) => jsonContains(container[key], value))
    );
  }
  return container === contained;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
