import type pg from 'pg';

export type CancelAction = 'interrupt' | 'rollback';

/** A running run as its lease knows it. */
export interface LeasedRun {
  run_id: string;
  thread_id: string;
  cancel_action: CancelAction | null;
  start_checkpoint_id: string | null;
}

const EXPIRED_REASON =
  'The replica executing this run stopped renewing its lease (it crashed or was killed); the run was not resumed.';

/**
 * The lease side of `deployment.runs` in cluster mode: the owner renews the leases of the runs it
 * executes and learns of cancel requests there (a durable intent, in case the Redis message was
 * missed); any replica files a cancel request, reads a run's lease, and settles a run whose lease
 * has expired.
 */
export function createRunLeases(pool: pg.Pool) {
  return {
    /** Extends `owner`'s leases; answers each run still held, with any cancel request on it. */
    async renew(owner: string, runIds: string[], leaseMs: number): Promise<LeasedRun[]> {
      if (runIds.length === 0) return [];
      const { rows } = await pool.query<LeasedRun>(
        `UPDATE deployment.runs SET lease_until = now() + $3 * interval '1 millisecond'
         WHERE owner = $1 AND status = 'running' AND run_id = ANY($2)
         RETURNING run_id, thread_id, cancel_action, start_checkpoint_id`,
        [owner, runIds, leaseMs],
      );
      return rows;
    },

    /** Records a cancel request on a running run; `false` when it is not running (anymore). */
    async requestCancel(runId: string, action: CancelAction): Promise<boolean> {
      const { rowCount } = await pool.query(
        `UPDATE deployment.runs SET cancel_action = $2 WHERE run_id = $1 AND status = 'running'`,
        [runId, action],
      );
      return (rowCount ?? 0) > 0;
    },

    /** The run's state for a replica waiting on its owner: gone, settled, running, or expired. */
    async lease(runId: string): Promise<'gone' | 'settled' | 'running' | 'expired'> {
      const { rows } = await pool.query<{ status: string; expired: boolean }>(
        `SELECT status, lease_until < now() AS expired FROM deployment.runs WHERE run_id = $1`,
        [runId],
      );
      const row = rows[0];
      if (!row) return 'gone';
      if (row.status !== 'running') return 'settled';
      return row.expired ? 'expired' : 'running';
    },

    /** Running runs whose lease has expired (their replica died or hangs). */
    async expired(): Promise<LeasedRun[]> {
      const { rows } = await pool.query<LeasedRun>(
        `SELECT run_id, thread_id, cancel_action, start_checkpoint_id FROM deployment.runs
         WHERE status = 'running' AND lease_until < now()`,
      );
      return rows;
    },

    /**
     * Settles a run whose lease has expired, as the Agent Server ends a run its worker lost: a
     * requested interrupt makes it `interrupted`, otherwise it ends in `error`. A requested
     * rollback is left to the caller (it deletes the run with its checkpoints). Answers the run
     * when this call settled it, `undefined` when another replica did (or the lease was renewed).
     */
    async settleExpired(runId: string): Promise<LeasedRun | undefined> {
      const { rows } = await pool.query<LeasedRun>(
        `UPDATE deployment.runs SET owner = NULL, lease_until = NULL, updated_at = now(),
           status = CASE WHEN cancel_action = 'interrupt' THEN 'interrupted' ELSE 'error' END,
           error = CASE WHEN cancel_action = 'interrupt' THEN NULL ELSE $2 END
         WHERE run_id = $1 AND status = 'running' AND lease_until < now()
         RETURNING run_id, thread_id, cancel_action, start_checkpoint_id`,
        [runId, EXPIRED_REASON],
      );
      return rows[0];
    },
  };
}

export type RunLeases = ReturnType<typeof createRunLeases>;
