import { type MetadataFilter, type MetadataTree, metadataTree } from './metadata-filter';
import type { NamespaceQuery } from './records';

/** Labels never contain '.', so the joined path is unambiguous (the SDK's GET sends it so too). */
export const SEPARATOR = '.';

const startsWith = (labels: string[], prefix: string[]) =>
  prefix.every((label, i) => labels[i] === label);
const endsWith = (labels: string[], suffix: string[]) =>
  suffix.every((label, i) => labels[labels.length - suffix.length + i] === label);

/** The namespaces a `NamespaceQuery` lists from the stored (joined) ones: cut, distinct, sorted. */
export function pickNamespaces(stored: string[], query: NamespaceQuery): string[][] {
  const { prefix, suffix, max_depth, limit, offset } = query;
  const seen = new Map<string, string[]>();
  for (const namespace of stored) {
    const labels = namespace.split(SEPARATOR);
    if (prefix && !startsWith(labels, prefix)) continue;
    if (suffix && !endsWith(labels, suffix)) continue;
    const cut = max_depth == null ? labels : labels.slice(0, max_depth);
    seen.set(cut.join(SEPARATOR), cut);
  }
  return [...seen.values()]
    .sort((a, b) => a.join(SEPARATOR).localeCompare(b.join(SEPARATOR)))
    .slice(offset, offset + limit);
}

/** Strictly increasing timestamps, so an update always sorts after the put before it. */
export function createIncreasingClock() {
  let last = 0;
  return (): string => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last).toISOString();
  };
}

/**
 * The labels every namespace `filters` allow must hold: their `namespace: {$contains}` conditions
 * outside any `$or`. The store narrows its queries with them; the whole filter is still checked.
 */
export function requiredLabels(filters: MetadataFilter | undefined): string[] {
  const labels: string[] = [];
  const walk = (tree: MetadataTree) => {
    if ('all' in tree) tree.all.forEach(walk);
    else if ('test' in tree && tree.test.key === 'namespace' && 'contains' in tree.test) {
      labels.push(...tree.test.contains);
    }
  };
  if (filters) walk(metadataTree(filters));
  return labels;
}
