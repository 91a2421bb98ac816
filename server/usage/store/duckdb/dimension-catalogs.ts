import type { DuckDBConnection } from '@duckdb/node-api';
import { z } from 'zod';
import type { TraceGroupBy as GroupBy } from '@contracts/usage/usage-schema';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';
import {
  buildDimensionFingerprintSql,
  buildDimensionLabelsSql,
  buildProjectWorkspacesSql,
} from './dimension-sql';

const labelPairsSchema = z.array(z.tuple([z.string(), z.string().nullable()]));
const projectWorkspacesSchema = z.array(z.tuple([z.string(), z.string(), z.string()]));

async function readJsonList(connection: DuckDBConnection, sql: string): Promise<unknown> {
  const reader = await connection.runAndReadAll(sql);
  return JSON.parse(String(reader.getRowsJS()[0]?.[0] ?? '[]'));
}

/** Reads the dimension table of `groupBy` in output order (`buildDimensionLabelsSql`). */
async function readDimensionCatalog(
  connection: DuckDBConnection,
  groupBy: GroupBy,
): Promise<DimensionCatalog> {
  const pairs = labelPairsSchema.parse(
    await readJsonList(connection, buildDimensionLabelsSql(groupBy)),
  );
  const catalog: DimensionCatalog = {
    groupBy,
    ids: pairs.map(([id]) => id),
    labels: pairs.map(([, label]) => label),
  };
  if (groupBy !== 'project') return catalog;
  const parents = projectWorkspacesSchema.parse(
    await readJsonList(connection, buildProjectWorkspacesSql()),
  );
  return {
    ...catalog,
    workspaces: new Map(parents.map(([project, id, name]) => [project, { id, name }])),
  };
}

export type DimensionCatalogs = (
  connection: DuckDBConnection,
  groupBy: GroupBy,
) => Promise<DimensionCatalog>;

/**
 * The dimension tables, kept between requests: each call checks a fingerprint of the table
 * (count and XOR of `hash(id, label)`, < 1 ms for 5,000 users) and reads the table again only
 * when it changed, so renamed, added or removed values are seen by the next query. Call it inside
 * the transaction that then reads the facts, so both see the same snapshot.
 */
export function createDimensionCatalogs(): DimensionCatalogs {
  const cached = new Map<GroupBy, { fingerprint: string; catalog: DimensionCatalog }>();
  return async (connection, groupBy) => {
    const reader = await connection.runAndReadAll(buildDimensionFingerprintSql(groupBy));
    const fingerprint = String(reader.getRowsJS()[0]?.[0]);
    const hit = cached.get(groupBy);
    if (hit?.fingerprint === fingerprint) return hit.catalog;
    const catalog = await readDimensionCatalog(connection, groupBy);
    cached.set(groupBy, { fingerprint, catalog });
    return catalog;
  };
}
