/**
 * Stands in for `postgres` when the official API suite runs against our in-memory-mode server:
 * the suite imports it only for its Postgres mode, which `IS_MEMORY` turns off.
 */
export default function postgres(): never {
  throw new Error('postgres is not available in test:peer (the suite runs in memory mode)');
}
