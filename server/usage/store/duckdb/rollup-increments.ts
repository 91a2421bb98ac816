import type { DuckDBConnection } from '@duckdb/node-api';
import { PERIOD_DAYS } from './cumulative-rollup';

/** New traces of one UTC day for one (grouping, workspace, dimension value); `dim_id` may be null. */
export interface RollupIncrement {
  grouping: string;
  workspace_id: string;
  dim_id: string | null;
  n: number;
}

const INCREMENTS = `(SELECT unnest(from_json($1, '[{"grouping": "VARCHAR",
  "workspace_id": "VARCHAR", "dim_id": "VARCHAR", "n": "BIGINT"}]'), recursive := true))`;

const matches = (table: string) => `${table}.grouping = i.grouping
  AND ${table}.workspace_id = i.workspace_id::UUID
  AND ${table}.dim_id IS NOT DISTINCT FROM i.dim_id::UUID`;

/**
 * Keys of rollup rows known to exist (rows are never deleted once data is there), so a batch
 * whose rows all exist skips the two "create at zero" statements. Filled in by the caller after
 * its transaction committed.
 */
export type KnownRollupRows = Set<string>;

/**
 * Adds traces of day `at` to `usage_daily` and `usage_cumulative`, in the caller's transaction:
 * set-based statements for any number of increments (missing rows are created at zero first,
 * then every row gets its count). Both writers use it: the batch ingestor and `ingestTrace` (one
 * backdated trace). Returns the keys of the rows it created, for the caller to add to `known`
 * once committed.
 */
export async function addToRollups(
  connection: DuckDBConnection,
  increments: RollupIncrement[],
  at: Date,
  known: ReadonlySet<string>,
): Promise<string[]> {
  if (increments.length === 0) return [];
  const day = at.toISOString().slice(0, 10);
  const epochDay = Math.floor(Date.parse(day) / 86_400_000);
  const period = Math.floor(epochDay / PERIOD_DAYS);
  // cum[k + 1] counts the period's first k days, so these traces count from k = offset + 1 on.
  const firstIndex = epochDay - period * PERIOD_DAYS + 2;
  const json = JSON.stringify(increments);
  const keyOf = (i: RollupIncrement) => `${i.grouping}|${i.workspace_id}|${i.dim_id ?? ''}|${day}`;
  const fresh = increments.filter((increment) => !known.has(keyOf(increment)));
  if (fresh.length > 0) await createRows(connection, JSON.stringify(fresh), day, period);
  await connection.run(
    `UPDATE usage_daily d SET traces = d.traces + i.n FROM ${INCREMENTS} i
     WHERE ${matches('d')} AND d.day = $2::DATE`,
    [json, day],
  );
  await connection.run(
    `UPDATE usage_cumulative c
     SET cum = list_transform(c.cum, (x, k) -> x + CASE WHEN k >= $3 THEN i.n ELSE 0 END)
     FROM ${INCREMENTS} i WHERE ${matches('c')} AND c.period = $2`,
    [json, period, firstIndex],
  );
  return fresh.map(keyOf);
}

/** Creates the daily and cumulative rows of `json`'s increments that do not exist yet, at zero. */
async function createRows(
  connection: DuckDBConnection,
  json: string,
  day: string,
  period: number,
): Promise<void> {
  await connection.run(
    `INSERT INTO usage_daily SELECT i.grouping, $2::DATE, i.workspace_id::UUID, i.dim_id::UUID, 0
     FROM ${INCREMENTS} i
     WHERE NOT EXISTS (SELECT 1 FROM usage_daily d WHERE ${matches('d')} AND d.day = $2::DATE)`,
    [json, day],
  );
  await connection.run(
    `INSERT INTO usage_cumulative SELECT i.grouping, $2, i.workspace_id::UUID, i.dim_id::UUID,
       list_transform(range(${PERIOD_DAYS + 1}), k -> 0::BIGINT)
     FROM ${INCREMENTS} i
     WHERE NOT EXISTS (SELECT 1 FROM usage_cumulative c WHERE ${matches('c')} AND c.period = $2)`,
    [json, period],
  );
}
