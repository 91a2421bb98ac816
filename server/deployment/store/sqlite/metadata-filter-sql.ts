import { type MetadataFilter, type MetadataTest, metadataTree, treeSql } from '../metadata-filter';

/** The JSON path of a top-level metadata key; keys are the developer's filter names. */
function jsonPath(key: string): string {
  if (/["\\]/.test(key)) throw new Error(`A metadata filter key cannot hold quotes: ${key}`);
  return `$."${key}"`;
}

function leaf(test: MetadataTest, params: unknown[]): string {
  const path = jsonPath(test.key);
  if ('equals' in test) {
    params.push(path, path, test.equals);
    return `(json_type(metadata, ?) = 'text' AND json_extract(metadata, ?) = ?)`;
  }
  params.push(path);
  const each = test.contains.map((value) => {
    params.push(path, value);
    return `EXISTS (SELECT 1 FROM json_each(metadata, ?) WHERE type = 'text' AND value = ?)`;
  });
  return `(json_type(metadata, ?) = 'array' AND ${[...each, 'TRUE'].join(' AND ')})`;
}

/** `filter` as an SQLite condition on a `metadata` TEXT column of JSON, and its parameters. */
export function metadataFilterSql(filter: MetadataFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const sql = treeSql(metadataTree(filter), leaf, params);
  return { sql, params };
}
