import { type MetadataFilter, type MetadataTest, metadataTree, treeSql } from '../metadata-filter';

function leaf(test: MetadataTest, params: unknown[]): string {
  params.push(test.key);
  const key = `$${params.length}`;
  if ('equals' in test) {
    params.push(test.equals);
    return `(metadata::jsonb -> ${key}::text) = to_jsonb($${params.length}::text)`;
  }
  params.push(JSON.stringify(test.contains));
  return (
    `(jsonb_typeof(metadata::jsonb -> ${key}::text) = 'array' ` +
    `AND (metadata::jsonb -> ${key}::text) @> $${params.length}::jsonb)`
  );
}

/**
 * `filter` as a Postgres condition on a `metadata` json column; its parameters are numbered from
 * `$${first}` and returned in order.
 */
export function metadataFilterSql(
  filter: MetadataFilter,
  first = 1,
): { sql: string; params: unknown[] } {
  const params: unknown[] = Array.from({ length: first - 1 });
  const sql = treeSql(metadataTree(filter), leaf, params);
  return { sql, params: params.slice(first - 1) };
}
