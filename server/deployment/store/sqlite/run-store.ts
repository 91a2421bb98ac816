import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { RunStatus } from '@contracts/deployment';
import type { RunStore } from '../deployment-store';
import { DEFAULT_KWARGS, type RunKwargs, type RunRecord } from '../records';

interface RunRow extends Omit<RunRecord, 'metadata' | 'input' | 'kwargs'> {
  metadata: string;
  input: string;
  kwargs: string;
}

const COLUMNS = `run_id, thread_id, assistant_id, status, multitask_strategy, created_at, updated_at,
  metadata, input, error, kwargs`;

function toRecord(row: RunRow): RunRecord {
  return {
    ...row,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    input: JSON.parse(row.input) as Record<string, unknown> | null,
    kwargs: { ...DEFAULT_KWARGS, ...(JSON.parse(row.kwargs) as Partial<RunKwargs>) },
  };
}

/** Run records in the SQLite file (statements are synchronous; the port is not). */
export function createSqliteRunStore(db: Database.Database): RunStore {
  const insert = db.prepare(
    `INSERT INTO runs (${COLUMNS}) VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, NULL, ?)`,
  );
  const selectOne = db.prepare<[string, string], RunRow>(
    `SELECT ${COLUMNS} FROM runs WHERE thread_id = ? AND run_id = ?`,
  );
  const selectPage = db.prepare<[string, string | null, string | null, number, number], RunRow>(
    `SELECT ${COLUMNS} FROM runs WHERE thread_id = ? AND (? IS NULL OR status = ?)
     ORDER BY seq DESC LIMIT ? OFFSET ?`,
  );
  const byStatus = db.prepare<[], { status: RunStatus; n: number }>(
    'SELECT status, count(*) AS n FROM runs GROUP BY status',
  );
  const selectActive = db.prepare<[string], RunRow>(
    `SELECT ${COLUMNS} FROM runs WHERE thread_id = ? AND status IN ('pending', 'running')
     ORDER BY seq`,
  );
  const selectLatest = db.prepare<[string], RunRow>(
    `SELECT ${COLUMNS} FROM runs WHERE thread_id = ? ORDER BY seq DESC LIMIT 1`,
  );
  const update = db.prepare<[RunStatus, string, string | null, string], RunRow>(
    `UPDATE runs SET status = ?, updated_at = ?, error = ? WHERE run_id = ? RETURNING ${COLUMNS}`,
  );
  const remove = db.prepare<[string]>('DELETE FROM runs WHERE run_id = ?');
  const touchThread = db.prepare<[string, string]>(
    'UPDATE threads SET updated_at = ? WHERE thread_id = ?',
  );
  // One process: the executor's thread lock is the whole guarantee; owner and lease are moot.
  const claim = db.prepare<[string, string], { start_checkpoint_id: string | null }>(
    `UPDATE runs SET status = 'running', updated_at = ? WHERE run_id = ? AND status = 'pending'
     RETURNING (
       SELECT checkpoint_id FROM checkpoints
       WHERE checkpoints.thread_id = runs.thread_id AND checkpoint_ns = ''
       ORDER BY checkpoint_id DESC LIMIT 1
     ) AS start_checkpoint_id`,
  );
  const pendingThreads = db.prepare<[], { thread_id: string }>(
    `SELECT DISTINCT thread_id FROM runs WHERE status = 'pending'`,
  );
  const failRunning = db.prepare<[string, string]>(
    `UPDATE runs SET status = 'error', updated_at = ?, error = ? WHERE status = 'running'`,
  );
  const runningThreads = db.prepare<[], { thread_id: string }>(
    `SELECT DISTINCT thread_id FROM runs WHERE status = 'running'`,
  );
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM runs');
  const get = (threadId: string, runId: string) => {
    const row = selectOne.get(threadId, runId);
    return row && toRecord(row);
  };

  return {
    async create({ threadId, assistantId, input, metadata, strategy, kwargs }) {
      const now = new Date().toISOString();
      const runId = randomUUID();
      const row = [runId, threadId, assistantId, strategy, now, now];
      db.transaction(() => {
        insert.run(...row, JSON.stringify(metadata), JSON.stringify(input), JSON.stringify(kwargs));
        touchThread.run(now, threadId);
      })();
      return get(threadId, runId) as RunRecord;
    },
    get: async (threadId, runId) => get(threadId, runId),
    async list(threadId, page) {
      const status = page.status ?? null;
      return selectPage.all(threadId, status, status, page.limit, page.offset).map(toRecord);
    },
    active: async (threadId) => selectActive.all(threadId).map(toRecord),
    async latest(threadId) {
      const row = selectLatest.get(threadId);
      return row && toRecord(row);
    },
    async setStatus(runId, status, error = null) {
      const row = update.get(status, new Date().toISOString(), error, runId);
      return row && toRecord(row);
    },
    async delete(runId) {
      remove.run(runId);
    },
    // One process never re-queues a run: every start is its first attempt.
    async claim({ runId }) {
      const row = claim.get(new Date().toISOString(), runId);
      return row && { attempt: 1, startCheckpointId: row.start_checkpoint_id };
    },
    threadsWithPendingRuns: async () => pendingThreads.all().map((row) => row.thread_id),
    threadsWithRunningRuns: async () => runningThreads.all().map((row) => row.thread_id),
    failOrphanedRuns: async (reason) => failRunning.run(new Date().toISOString(), reason).changes,
    count: async () => count.get()?.n ?? 0,
    countByStatus: async () => Object.fromEntries(byStatus.all().map((row) => [row.status, row.n])),
  };
}
