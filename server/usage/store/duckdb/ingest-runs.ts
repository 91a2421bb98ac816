import type { DuckDBConnection } from '@duckdb/node-api';
import type { Refusal } from '@server/usage/model/select-over-limit';
import type { RefusedRun, RunBatch, RunBatchResult } from '@server/usage/store/usage-store';
import type { AdmitRuns } from './limits/admit-runs';
import { ensureProjects } from './ensure-projects';
import { TIER_IDS } from '@server/usage/model/trace-tiers';
import { addToRollups, type KnownRollupRows, type RollupIncrement } from './rollup-increments';
import { selectUnbilled, type RunIdFilter } from './run-id-filter';

/** A batch waiting for the next group commit, with the promise its sender awaits. */
export interface PendingBatch {
  batch: RunBatch;
  resolve: (result: RunBatchResult) => void;
  reject: (error: unknown) => void;
}

/** What committed transactions created, so later batches skip the statements that would. */
export interface Known {
  projects: Map<string, string>;
  rollupRows: KnownRollupRows;
  billed: RunIdFilter;
}

/** Writes one group of batches in one transaction (see `createRunIngestor`). */
export async function writeGroup(
  connection: DuckDBConnection,
  group: PendingBatch[],
  known: Known,
  admit: AdmitRuns | undefined,
): Promise<RunBatchResult[]> {
  const ingestedAt = new Date();
  const created = new Map<string, string>();
  await connection.run('BEGIN TRANSACTION');
  try {
    const wanted = group.flatMap(({ batch }) =>
      batch.runs.map((run) => ({ workspaceId: batch.workspaceId, name: run.projectName })),
    );
    const projectIds = await ensureProjects(connection, wanted, known.projects, created);
    const candidates = traceRows(group, projectIds);
    const { unbilled, remember } = await selectUnbilled(
      connection,
      known.billed,
      candidates.map((row) => row.runId),
    );
    const fresh = candidates.filter((row) => unbilled.has(row.runId));
    // Usage limits decide among the new runs only: a resent run is never refused nor counted.
    // A run's tier is its project's now, as `insertTraces` stores it.
    // The tier also goes into the rollups (grouping `trace_tier`).
    const longLived = await longLivedProjects(connection, fresh);
    const refusals = admit
      ? await admit(
          connection,
          fresh.map((row) => ({
            runId: row.runId,
            workspaceId: row.batch.workspaceId,
            projectName: row.projectName,
            tier: longLived.has(row.projectId) ? ('long' as const) : ('short' as const),
            projectId: row.projectId,
            userId: row.batch.userId,
          })),
          ingestedAt,
        )
      : new Map<string, Refusal>();
    // A refused id stays in the filter's fingerprints: harmless, a resend is checked exactly.
    const rows = fresh.filter((row) => !refusals.has(row.runId));
    await insertTraces(connection, rows, ingestedAt);
    const rollupRows = await addToRollups(
      connection,
      increments(rows, longLived),
      ingestedAt,
      known.rollupRows,
    );
    await connection.run('COMMIT');
    remember();
    for (const [key, id] of created) known.projects.set(key, id);
    for (const key of rollupRows) known.rollupRows.add(key);
    const perBatch = new Map<RunBatch, number>();
    for (const row of rows) perBatch.set(row.batch, (perBatch.get(row.batch) ?? 0) + 1);
    const refusedPerBatch = new Map<RunBatch, RefusedRun[]>();
    for (const row of fresh) {
      const refusal = refusals.get(row.runId);
      if (!refusal) continue;
      const list = refusedPerBatch.get(row.batch) ?? [];
      list.push({ runId: row.runId, ...refusal });
      refusedPerBatch.set(row.batch, list);
    }
    return group.map(({ batch }) => {
      const inserted = perBatch.get(batch) ?? 0;
      const refused = refusedPerBatch.get(batch) ?? [];
      return {
        inserted,
        duplicates: batch.runs.length - inserted - refused.length,
        refused,
        ingestedAt,
      };
    });
  } catch (error) {
    // A failed COMMIT has already ended the transaction; the original error is what matters.
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

interface TraceRow {
  batch: RunBatch;
  runId: string;
  projectId: string;
  projectName: string;
}

/** The group's runs, each run id once (the first batch that sent it owns it). */
function traceRows(
  group: PendingBatch[],
  projectId: (workspaceId: string, name: string) => string,
): TraceRow[] {
  const rows = new Map<string, TraceRow>();
  for (const { batch } of group) {
    for (const run of batch.runs) {
      // Stored ids read back lower-case: compare them so.
      const runId = run.runId.toLowerCase();
      if (rows.has(runId)) continue;
      rows.set(runId, {
        batch,
        runId,
        projectId: projectId(batch.workspaceId, run.projectName),
        projectName: run.projectName,
      });
    }
  }
  return [...rows.values()];
}

/** The ids among `rows`' projects whose retention tier is long-lived. */
async function longLivedProjects(
  connection: DuckDBConnection,
  rows: readonly TraceRow[],
): Promise<Set<string>> {
  const ids = [...new Set(rows.map((row) => row.projectId))];
  if (ids.length === 0) return new Set();
  const reader = await connection.runAndReadAll(
    `SELECT id::VARCHAR FROM projects
     WHERE trace_tier = 'longlived' AND list_contains(string_split($1, ','), id::VARCHAR)`,
    [ids.join(',')],
  );
  return new Set(reader.getRowsJS().map(([id]) => String(id)));
}

/**
 * Inserts the (new) traces, one statement per (workspace, user, API key). Each takes its
 * project's retention tier as it is now (short-lived when unset): changing a project's tier
 * later leaves its earlier traces in theirs.
 */
async function insertTraces(
  connection: DuckDBConnection,
  rows: TraceRow[],
  ingestedAt: Date,
): Promise<void> {
  const byTarget = new Map<string, TraceRow[]>();
  for (const row of rows) {
    const { workspaceId, userId, apiKeyId } = row.batch;
    const key = `${workspaceId}|${userId ?? ''}|${apiKeyId ?? ''}`;
    const list = byTarget.get(key);
    if (list) list.push(row);
    else byTarget.set(key, [row]);
  }
  for (const targetRows of byTarget.values()) {
    const [first] = targetRows;
    if (!first) continue;
    // Comma-joined columns (ids hold no commas): two parameters whatever the batch size, split
    // by DuckDB; the target's ids are constants.
    await connection.run(
      `INSERT INTO traces (run_id, workspace_id, project_id, user_id, api_key_id, start_time,
         trace_tier)
       SELECT r.run_id::UUID, $3::UUID, r.project_id::UUID, $4::UUID, $5::UUID, $6::TIMESTAMP,
         coalesce(p.trace_tier, 'shortlived')
       FROM (SELECT unnest(string_split($1, ',')) AS run_id,
         unnest(string_split($2, ',')) AS project_id) r
       LEFT JOIN projects p ON p.id = r.project_id::UUID`,
      [
        targetRows.map((row) => row.runId).join(','),
        targetRows.map((row) => row.projectId).join(','),
        first.batch.workspaceId,
        first.batch.userId,
        first.batch.apiKeyId,
        ingestedAt.toISOString(),
      ],
    );
  }
}

/**
 * The new traces counted per (grouping, workspace, dimension value); `longLived`: the ids of
 * their projects that are long-lived (a trace's tier is its project's now, as stored).
 */
function increments(rows: TraceRow[], longLived: ReadonlySet<string>): RollupIncrement[] {
  const counts = new Map<string, RollupIncrement>();
  const add = (grouping: string, workspaceId: string, dimId: string | null) => {
    const key = `${grouping}|${workspaceId}|${dimId ?? ''}`;
    const entry = counts.get(key) ?? { grouping, workspace_id: workspaceId, dim_id: dimId, n: 0 };
    entry.n += 1;
    counts.set(key, entry);
  };
  for (const row of rows) {
    const { workspaceId, userId, apiKeyId } = row.batch;
    add('workspace', workspaceId, workspaceId);
    add('project', workspaceId, row.projectId);
    add('user', workspaceId, userId);
    add('api_key', workspaceId, apiKeyId);
    add(
      'trace_tier',
      workspaceId,
      TIER_IDS[longLived.has(row.projectId) ? 'longlived' : 'shortlived'],
    );
  }
  return [...counts.values()];
}
