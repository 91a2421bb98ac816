/** One metadata condition: equal to a string, or a list that contains the value(s). */
export type MetadataCondition = string | { $eq?: string; $contains?: string | string[] };

/**
 * Conditions on a record's metadata that every listed record meets (authorization's filters:
 * `{owner: "user-1"}`, `$eq`, `$contains`, and their `$or` / `$and` combinations). Backends apply
 * them inside their queries.
 */
export type MetadataFilter = {
  [key: string]: MetadataCondition | MetadataFilter[] | undefined;
  $or?: MetadataFilter[];
  $and?: MetadataFilter[];
};

/** One leaf of a filter, as a backend turns it into SQL. */
export type MetadataTest = { key: string; equals: string } | { key: string; contains: string[] };

/** A filter as a tree of and/or over leaves, for a backend to write as SQL. */
export type MetadataTree =
  { all: MetadataTree[] } | { any: MetadataTree[] } | { test: MetadataTest };

/** The tree of `filter`: its keys and its `$and` all hold, one of each `$or` holds. */
export function metadataTree(filter: MetadataFilter): MetadataTree {
  const parts: MetadataTree[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (key === '$or' && Array.isArray(value)) parts.push({ any: value.map(metadataTree) });
    else if (key === '$and' && Array.isArray(value)) parts.push({ all: value.map(metadataTree) });
    else if (typeof value === 'string') parts.push({ test: { key, equals: value } });
    else if (!Array.isArray(value) && value.$eq !== undefined) {
      parts.push({ test: { key, equals: value.$eq } });
    } else if (!Array.isArray(value) && value.$contains !== undefined) {
      const wanted = Array.isArray(value.$contains) ? value.$contains : [value.$contains];
      parts.push({ test: { key, contains: wanted } });
    }
  }
  return { all: parts };
}

/**
 * Writes a tree as a SQL condition with positional parameters, each leaf by `leaf` (which pushes
 * its own parameters). An empty `all` holds, an empty `any` does not.
 */
export function treeSql(
  tree: MetadataTree,
  leaf: (test: MetadataTest, params: unknown[]) => string,
  params: unknown[],
): string {
  if ('test' in tree) return leaf(tree.test, params);
  const [items, joiner, empty] =
    'all' in tree ? [tree.all, ' AND ', 'TRUE'] : [tree.any, ' OR ', 'FALSE'];
  if (items.length === 0) return empty;
  return `(${items.map((item) => treeSql(item, leaf, params)).join(joiner)})`;
}
