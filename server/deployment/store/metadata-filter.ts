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

function isCondition(
  value: MetadataCondition | MetadataFilter[] | undefined,
): value is MetadataCondition {
  return value !== undefined && !Array.isArray(value);
}

function meets(actual: unknown, condition: MetadataCondition): boolean {
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
  filters: MetadataFilter | undefined,
): boolean {
  if (!filters) return true;
  return Object.entries(filters).every(([key, value]) => {
    if (key === '$or') return (filters.$or ?? []).some((each) => matchesFilters(metadata, each));
    if (key === '$and') return (filters.$and ?? []).every((each) => matchesFilters(metadata, each));
    return !isCondition(value) || meets(metadata[key], value);
  });
}
