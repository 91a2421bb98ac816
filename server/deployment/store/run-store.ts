import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { MultitaskStrategy, RunInput, RunStatus } from '@contracts/deployment';
import type { RunKwargs } from '../wire/run-request';

/** A run as stored: the wire fields plus what the server needs to execute and roll it back. */
export interface RunRecord {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  status: RunStatus;
  multitask_strategy: MultitaskStrategy | null;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
  /** `null` when the run continues from the checkpoint (a resume, or a `command`). */
  input: RunInput | null;
  error: string | null;
  kwargs: RunKwargs;
}

interface RunRow extends Omit<RunRecord, 'metadata' | 'input' | 'kwargs'> {
  metadata: string;
  input: string;
  kwargs: string;
}

interface NewRun {
  threadId: string;
  assistantId: string;
  input: RunInput | null;
  metadata: Record<string, unknown>;
  strategy: MultitaskStrategy;
  kwargs: RunKwargs;
}

const COLUMNS = `run_id, thread_id, assistant_id, status, multitask_strategy, created_at, updated_at,
  metadata, input, error, kwargs`;

/** Runs stored before streaming existed have `{}`: they streamed nothing and take the defaults. */
const DEFAULT_KWARGS: RunKwargs = {
  stream_mode: ['values'],
  stream_subgraphs: false,
  stream_resumable: false,
};

function toRecord(row: RunRow): RunRecord {
  return {
    ...row,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    input: JSON.parse(row.input) as RunInput | null,
    kwargs: { ...DEFAULT_KWARGS, ...(JSON.parse(row.kwargs) as Partial<RunKwargs>) },
  };
}

/** Run records. Every method is synchronous (better-sqlite3), so callers see no interleaving. */
export function createRunStore(db: Database.Database) {
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
  const selectActive = db.prepare<[string], RunRow>(
    `SELECT ${COLUMNS} FROM runs WHERE thread_id = ? AND status IN ('pending', 'running')
     ORDER BY seq`,
  );
  const selectLatest = db.prepare<[string], RunRow>(
    `SELECT ${COLUMNS} FROM runs WHERE thread_id = ? ORDER BY seq DESC LIMIT 1`,
  );
  const update = db.prepare<[RunStatus, string, string | null, string]>(
    'UPDATE runs SET status = ?, updated_at = ?, error = ? WHERE run_id = ?',
  );
  const remove = db.prepare<[string]>('DELETE FROM runs WHERE run_id = ?');
  const pendingThreads = db.prepare<[], { thread_id: string }>(
    `SELECT DISTINCT thread_id FROM runs WHERE status = 'pending'`,
  );
  const failRunning = db.prepare<[string, string]>(
    `UPDATE runs SET status = 'error', updated_at = ?, error = ? WHERE status = 'running'`,
  );
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM runs');

  return {
    create({ threadId, assistantId, input, metadata, strategy, kwargs }: NewRun): RunRecord {
      const now = new Date().toISOString();
      const runId = randomUUID();
      const row = [runId, threadId, assistantId, strategy, now, now];
      insert.run(...row, JSON.stringify(metadata), JSON.stringify(input), JSON.stringify(kwargs));
      return this.get(threadId, runId) as RunRecord;
    },
    get(threadId: string, runId: string): RunRecord | undefined {
      const row = selectOne.get(threadId, runId);
      return row && toRecord(row);
    },
    list(threadId: string, page: { limit: number; offset: number; status?: RunStatus }) {
      const status = page.status ?? null;
      return selectPage.all(threadId, status, status, page.limit, page.offset).map(toRecord);
    },
    /** Pending and running runs of a thread, oldest first. */
    active(threadId: string): RunRecord[] {
      return selectActive.all(threadId).map(toRecord);
    },
    latest(threadId: string): RunRecord | undefined {
      const row = selectLatest.get(threadId);
      return row && toRecord(row);
    },
    setStatus(runId: string, status: RunStatus, error: string | null = null) {
      update.run(status, new Date().toISOString(), error, runId);
    },
    delete(runId: string): void {
      remove.run(runId);
    },
    threadsWithPendingRuns(): string[] {
      return pendingThreads.all().map((row) => row.thread_id);
    },
    /** On start-up: runs still `running` were cut off by a crash; they never resume. */
    failOrphanedRuns(reason: string): number {
      return failRunning.run(new Date().toISOString(), reason).changes;
    },
    count(): number {
      return count.get()?.n ?? 0;
    },
  };
}

export type RunStore = ReturnType<typeof createRunStore>;
