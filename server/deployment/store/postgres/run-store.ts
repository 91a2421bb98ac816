import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { RunStatus } from '@contracts/deployment';
import type { RunStore } from '../deployment-store';
import { DEFAULT_KWARGS, type RunKwargs, type RunRecord } from '../records';

export interface RunRow extends Omit<RunRecord, 'created_at' | 'updated_at' | 'kwargs'> {
  created_at: Date;
  updated_at: Date;
  kwargs: Partial<RunKwargs>;
}

export const RUN_COLUMNS = `run_id, thread_id, assistant_id, status, multitask_strategy,
  created_at, updated_at, metadata, input, error, kwargs`;

export const toRunRecord = (row: RunRow): RunRecord => ({
  ...row,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  kwargs: { ...DEFAULT_KWARGS, ...row.kwargs },
});

/** Run records in `deployment.runs`. */
export function createPostgresRunStore(pool: pg.Pool): RunStore {
  const select = async (where: string, values: unknown[]) => {
    const { rows } = await pool.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM deployment.runs WHERE ${where}`,
      values,
    );
    return rows.map(toRunRecord);
  };
  const threadIds = async (status: RunStatus) => {
    const { rows } = await pool.query<{ thread_id: string }>(
      'SELECT DISTINCT thread_id FROM deployment.runs WHERE status = $1',
      [status],
    );
    return rows.map((row) => row.thread_id);
  };

  return {
    async create({ threadId, assistantId, input, metadata, strategy, kwargs }) {
      const now = new Date().toISOString();
      // The thread is touched in the same statement (one round trip).
      const { rows } = await pool.query<RunRow>(
        `WITH touched AS (
           UPDATE deployment.threads SET updated_at = $5 WHERE thread_id = $2
         )
         INSERT INTO deployment.runs (run_id, thread_id, assistant_id, status, multitask_strategy,
           created_at, updated_at, metadata, input, error, kwargs)
         VALUES ($1, $2, $3, 'pending', $4, $5, $5, $6, $7, NULL, $8) RETURNING ${RUN_COLUMNS}`,
        [
          randomUUID(),
          threadId,
          assistantId,
          strategy,
          now,
          JSON.stringify(metadata),
          JSON.stringify(input),
          JSON.stringify(kwargs),
        ],
      );
      return toRunRecord(rows[0] as RunRow);
    },
    get: async (threadId, runId) =>
      (await select('thread_id = $1 AND run_id = $2', [threadId, runId]))[0],
    list: (threadId, page) =>
      select(
        'thread_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY seq DESC LIMIT $3 OFFSET $4',
        [threadId, page.status ?? null, page.limit, page.offset],
      ),
    active: (threadId) =>
      select(`thread_id = $1 AND status IN ('pending', 'running') ORDER BY seq`, [threadId]),
    latest: async (threadId) =>
      (await select('thread_id = $1 ORDER BY seq DESC LIMIT 1', [threadId]))[0],
    async setStatus(runId, status, error = null, owner) {
      const { rows } = await pool.query<RunRow>(
        `UPDATE deployment.runs SET status = $1, updated_at = $2, error = $3,
           owner = CASE WHEN $1 = 'running' THEN owner END,
           lease_until = CASE WHEN $1 = 'running' THEN lease_until END
         WHERE run_id = $4 AND ($5::text IS NULL OR (owner = $5 AND status = 'running'))
         RETURNING ${RUN_COLUMNS}`,
        [status, new Date().toISOString(), error, runId, owner ?? null],
      );
      return rows[0] && toRunRecord(rows[0]);
    },
    async claim({ runId, owner, leaseMs }) {
      const { rows } = await pool.query<{ attempt: number; start_checkpoint_id: string | null }>(
        `UPDATE deployment.runs SET status = 'running', updated_at = now(), owner = $2,
           start_checkpoint_id = (
             SELECT checkpoint_id FROM deployment.checkpoints AS head
             WHERE head.thread_id = runs.thread_id AND head.checkpoint_ns = ''
             ORDER BY head.checkpoint_id DESC LIMIT 1
           ),
           lease_until = now() + $3 * interval '1 millisecond',
           attempt = attempt + 1, cancel_action = NULL
         WHERE run_id = $1 AND status = 'pending'
         RETURNING attempt, start_checkpoint_id`,
        [runId, owner, leaseMs],
      );
      const [row] = rows;
      return row && { attempt: row.attempt, startCheckpointId: row.start_checkpoint_id };
    },
    async delete(runId) {
      await pool.query('DELETE FROM deployment.runs WHERE run_id = $1', [runId]);
    },
    threadsWithPendingRuns: () => threadIds('pending'),
    threadsWithRunningRuns: () => threadIds('running'),
    async failOrphanedRuns(reason) {
      const { rowCount } = await pool.query(
        `UPDATE deployment.runs SET status = 'error', updated_at = $1, error = $2,
           owner = NULL, lease_until = NULL
         WHERE status = 'running'`,
        [new Date().toISOString(), reason],
      );
      return rowCount ?? 0;
    },
    async count() {
      const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM deployment.runs');
      return Number(rows[0]?.n ?? 0);
    },
    async countByStatus() {
      const { rows } = await pool.query<{ status: RunStatus; n: string }>(
        'SELECT status, count(*) AS n FROM deployment.runs GROUP BY status',
      );
      return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
    },
  };
}
