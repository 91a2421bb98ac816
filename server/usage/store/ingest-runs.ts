import type { DuckDBConnection } from '@duckdb/node-api';
import { ensureProjects } from './ensure-projects';
import { addToRollups, type KnownRollupRows, type RollupIncrement } from './rollup-increments';
import type { UsageStore } from './usage-store';

/** One billable root run of a batch: its id and the project (`session_name`) it was sent to. */
export interface BillableRun {
  runId: string;
  projectName: string;
}

/** A batch of root runs from one key into one workspace. */
export interface RunBatch {
  workspaceId: string;
  userId: string | null;
  apiKeyId: string | null;
  runs: readonly BillableRun[];
}

export interface RunBatchResult {
  /** Runs stored as new traces; the others were already billed (same run id). */
  inserted: number;
  /** When the batch was billed: its traces count in the bucket of this instant. */
  ingestedAt: Date;
}

export type IngestRuns = (batch: RunBatch) => Promise<RunBatchResult>;

export interface RunIngestor {
  ingest: IngestRuns;
  /** Waits for the batches under way, then releases the writer's connection. */
  close(): Promise<void>;
}

interface Pending {
  batch: RunBatch;
  resolve: (result: RunBatchResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Returns `ingestRuns`, which bills batches of root runs. Batches that arrive while a write is
 * under way are written together in the next transaction (group commit), with a fixed number of
 * statements whatever their size: new projects, the traces (a `run_id` already stored is
 * skipped, so a resent run counts once) and the four groupings of `usage_daily` and
 * `usage_cumulative`. A batch's promise resolves only after its transaction committed, so an
 * acknowledged batch survives a crash, and a failed transaction rejects every batch in it.
 * Usage counts go by ingestion time: a trace's `start_time` is the transaction's start.
 */
export function createRunIngestor(store: UsageStore): RunIngestor {
  let pending: Pending[] = [];
  let writing = false;
  let connection: DuckDBConnection | undefined;
  let drained: Promise<void> = Promise.resolve();
  // What committed transactions created: projects (name -> id) and rollup rows. Neither is
  // ever deleted, so later batches skip the statements that would create them.
  const known: Known = { projects: new Map(), rollupRows: new Set() };

  async function drain(): Promise<void> {
    writing = true;
    while (pending.length > 0) {
      const group = pending;
      pending = [];
      try {
        // One connection for all writes, opened on the first batch (writes are serial anyway).
        connection ??= await store.connect();
        const results = await writeGroupOptimistically(connection, group, known);
        group.forEach((entry, i) =>
          entry.resolve(results[i] ?? { inserted: 0, ingestedAt: new Date() }),
        );
      } catch (error) {
        group.forEach((entry) => entry.reject(error));
      }
    }
    writing = false;
  }

  return {
    ingest: (batch) =>
      new Promise<RunBatchResult>((resolve, reject) => {
        pending.push({ batch, resolve, reject });
        if (!writing) drained = drain();
      }),
    async close() {
      await drained;
      connection?.closeSync();
      connection = undefined;
    },
  };
}

interface Known {
  projects: Map<string, string>;
  rollupRows: KnownRollupRows;
}

/**
 * Most runs are new: a plain INSERT into `traces` costs about a third of `ON CONFLICT DO NOTHING`
 * (measured: 9 against 33 ms of CPU per 1,000 runs on the demo store). So the group is written
 * with a plain INSERT first; if one of its runs was already billed, the unique index refuses the
 * statement, the transaction is rolled back and the group is written again, skipping known runs.
 */
async function writeGroupOptimistically(
  connection: DuckDBConnection,
  group: Pending[],
  known: Known,
): Promise<RunBatchResult[]> {
  try {
    return await writeGroup(connection, group, known, 'all-new');
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return writeGroup(connection, group, known, 'skip-known');
  }
}

const isDuplicateKey = (error: unknown) =>
  error instanceof Error && /duplicate key|constraint/i.test(error.message);

type InsertMode = 'all-new' | 'skip-known';

async function writeGroup(
  connection: DuckDBConnection,
  group: Pending[],
  known: Known,
  mode: InsertMode,
): Promise<RunBatchResult[]> {
  const ingestedAt = new Date();
  const created = new Map<string, string>();
  await connection.run('BEGIN TRANSACTION');
  try {
    const wanted = group.flatMap(({ batch }) =>
      batch.runs.map((run) => ({ workspaceId: batch.workspaceId, name: run.projectName })),
    );
    const projectIds = await ensureProjects(connection, wanted, known.projects, created);
    const rows = traceRows(group, projectIds);
    const inserted = await insertTraces(connection, rows, ingestedAt, mode);
    const rollupRows = await addToRollups(
      connection,
      increments(rows, inserted),
      ingestedAt,
      known.rollupRows,
    );
    await connection.run('COMMIT');
    for (const [key, id] of created) known.projects.set(key, id);
    for (const key of rollupRows) known.rollupRows.add(key);
    const perBatch = new Map<RunBatch, number>();
    for (const row of rows) {
      if (inserted.has(row.runId)) perBatch.set(row.batch, (perBatch.get(row.batch) ?? 0) + 1);
    }
    return group.map(({ batch }) => ({ inserted: perBatch.get(batch) ?? 0, ingestedAt }));
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
}

/** The group's runs, each run id once (the first batch that sent it owns it). */
function traceRows(
  group: Pending[],
  projectId: (workspaceId: string, name: string) => string,
): TraceRow[] {
  const rows = new Map<string, TraceRow>();
  for (const { batch } of group) {
    for (const run of batch.runs) {
      if (rows.has(run.runId)) continue;
      rows.set(run.runId, {
        batch,
        runId: run.runId,
        projectId: projectId(batch.workspaceId, run.projectName),
      });
    }
  }
  return [...rows.values()];
}

/**
 * Inserts the traces, one statement per (workspace, user, API key); returns the new run ids.
 * `all-new` throws on a run id already stored; `skip-known` skips those.
 */
async function insertTraces(
  connection: DuckDBConnection,
  rows: TraceRow[],
  ingestedAt: Date,
  mode: InsertMode,
): Promise<Set<string>> {
  const byTarget = new Map<string, TraceRow[]>();
  for (const row of rows) {
    const { workspaceId, userId, apiKeyId } = row.batch;
    const key = `${workspaceId}|${userId ?? ''}|${apiKeyId ?? ''}`;
    const list = byTarget.get(key);
    if (list) list.push(row);
    else byTarget.set(key, [row]);
  }
  const inserted = new Set<string>();
  for (const targetRows of byTarget.values()) {
    const [first] = targetRows;
    if (!first) continue;
    // Comma-joined columns (ids hold no commas): two parameters whatever the batch size, split
    // by DuckDB; the target's ids are constants.
    const reader = await connection.runAndReadAll(
      `INSERT INTO traces
       SELECT r.run_id::UUID, $3::UUID, r.project_id::UUID, $4::UUID, $5::UUID, $6::TIMESTAMP
       FROM (SELECT unnest(string_split($1, ',')) AS run_id,
         unnest(string_split($2, ',')) AS project_id) r
       ${mode === 'skip-known' ? 'ON CONFLICT DO NOTHING RETURNING run_id::VARCHAR' : ''}`,
      [
        targetRows.map((row) => row.runId).join(','),
        targetRows.map((row) => row.projectId).join(','),
        first.batch.workspaceId,
        first.batch.userId,
        first.batch.apiKeyId,
        ingestedAt.toISOString(),
      ],
    );
    if (mode === 'all-new') targetRows.forEach((row) => inserted.add(row.runId));
    else for (const [runId] of reader.getRowsJS()) inserted.add(String(runId));
  }
  return inserted;
}

/** The new traces counted per (grouping, workspace, dimension value). */
function increments(rows: TraceRow[], inserted: Set<string>): RollupIncrement[] {
  const counts = new Map<string, RollupIncrement>();
  const add = (grouping: string, workspaceId: string, dimId: string | null) => {
    const key = `${grouping}|${workspaceId}|${dimId ?? ''}`;
    const entry = counts.get(key) ?? { grouping, workspace_id: workspaceId, dim_id: dimId, n: 0 };
    entry.n += 1;
    counts.set(key, entry);
  };
  for (const row of rows) {
    if (!inserted.has(row.runId)) continue;
    const { workspaceId, userId, apiKeyId } = row.batch;
    add('workspace', workspaceId, workspaceId);
    add('project', workspaceId, row.projectId);
    add('user', workspaceId, userId);
    add('api_key', workspaceId, apiKeyId);
  }
  return [...counts.values()];
}
