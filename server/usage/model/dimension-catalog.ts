import type { TraceGroupBy } from '@contracts/usage/usage-schema';

/**
 * A dimension table (workspaces, projects, users or API keys) in output order: by label, then
 * id, both compared as bytes (UTF-8); unlabelled values last, by id. A backend hands out the same
 * object until the table changes, so a renderer may key what it derives from a catalog by the
 * object.
 */
export interface DimensionCatalog {
  groupBy: TraceGroupBy;
  ids: string[];
  labels: (string | null)[];
  /** Projects only: each project's workspace, which its records name (see `toDimensions`). */
  workspaces?: ReadonlyMap<string, ParentWorkspace>;
}

/** The workspace a project belongs to. */
export interface ParentWorkspace {
  id: string;
  name: string;
}

const positionMaps = new WeakMap<DimensionCatalog, Map<string, number>>();

/** Each id's position in `catalog` (built once per catalog object). */
export function catalogPositions(catalog: DimensionCatalog): ReadonlyMap<string, number> {
  let positions = positionMaps.get(catalog);
  if (!positions) {
    positions = new Map(catalog.ids.map((id, position) => [id, position]));
    positionMaps.set(catalog, positions);
  }
  return positions;
}
