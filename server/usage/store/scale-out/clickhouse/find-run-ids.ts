import type { ClickHouseClient } from '@clickhouse/client';
import { INSERT_TIMEOUT_MS, tsvRows, uuidLiteral, workspacesSql } from './client';

/** A run id, and where its row would be: its workspace and UTC day (`YYYY-MM-DD`). */
export interface RunPlace {
  runId: string;
  workspaceId: string;
  day: string;
}

/**
 * The run ids of `rows` that have a row in `table` (`traces` or `llm_runs`, both ordered by
 * workspace, day and run id), within the insert deadline: how a claim left by a dead writer is
 * settled, billed if its rows landed, sent again if not.
 */
export async function findRunIds(
  client: ClickHouseClient,
  table: 'traces' | 'llm_runs',
  rows: readonly RunPlace[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const cells = await tsvRows(
    client,
    `SELECT DISTINCT toString(run_id) FROM ${table}
     WHERE ${workspacesSql([...new Set(rows.map((row) => row.workspaceId))])}
       AND day IN (${[...new Set(rows.map((row) => `toDate('${row.day}')`))].join(', ')})
       AND run_id IN (${rows.map((row) => uuidLiteral(row.runId)).join(', ')})`,
    INSERT_TIMEOUT_MS,
  );
  return new Set(cells.map(([id = '']) => id));
}
