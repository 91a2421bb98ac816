import { isDeepStrictEqual } from 'node:util';

const OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte'] as const;
type Operator = (typeof OPERATORS)[number];

const isOperator = (key: string): key is Operator => (OPERATORS as readonly string[]).includes(key);

function compare(actual: unknown, operator: Operator, expected: unknown): boolean {
  if (operator === '$eq') return isDeepStrictEqual(actual, expected);
  if (operator === '$ne') return !isDeepStrictEqual(actual, expected);
  const comparable =
    (typeof actual === 'number' && typeof expected === 'number') ||
    (typeof actual === 'string' && typeof expected === 'string');
  if (!comparable) return false;
  const [a, b] = [actual as number | string, expected as number | string];
  if (operator === '$gt') return a > b;
  if (operator === '$gte') return a >= b;
  if (operator === '$lt') return a < b;
  return a <= b;
}

/**
 * The LangGraph store's item filter: each key must equal the value, or satisfy an operator
 * object such as `{ "$gte": 3 }` (`$eq $ne $gt $gte $lt $lte`), as the official stores accept.
 */
export function matchesFilter(
  value: Record<string, unknown>,
  filter: Record<string, unknown>,
): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    const actual = value[key];
    if (typeof condition === 'object' && condition !== null && !Array.isArray(condition)) {
      const entries = Object.entries(condition);
      if (entries.length > 0 && entries.every(([op]) => isOperator(op))) {
        return entries.every(([op, expected]) => compare(actual, op as Operator, expected));
      }
    }
    return isDeepStrictEqual(actual, condition);
  });
}
