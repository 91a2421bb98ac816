import type pg from 'pg';
import { deleteOffChain } from './checkpoint-rollback';
import { inTransaction } from '@server/db/postgres';

export type CancelAction = 'interrupt' | 'rollback';

/** A running run as its lease knows it. */
export interface LeasedRun {
  run_id: string;
  thread_id: string;
  cancel_action: CancelAction | null;
  start_checkpoint_id: string | null;
}

/** A running run another replica may have to settle: its lease ran out, or its owner died. */
export interface OrphanedRun extends LeasedRun {
  owner: string;
  /** The lease ran out (else only the owner's liveness lock is gone, see `ownerAlive`). */
  lease_expired: boolean;
}

const LIVE_SUFFIX = '+live';

/**
 * Each replica holds a session advisory lock named by its owner id (the key pair: this namespace,
 * the id's hash) while its process lives; Postgres frees it when the session ends. Its owner id
 * ends in `suffix`: a replica of a release without the lock (during a rolling upgrade) is never
 * taken for dead by it, only by its lease. `lock` takes it (`$1`: the owner id); `goneFor(column)`
 * says whether the owner in `column` holds such a lock no more.
 */
export const ownerAlive = {
  suffix: LIVE_SUFFIX,
  lock: `pg_try_advisory_lock(hashtext('deployment replica'), hashtext($1))`,
  // Uncorrelated, so Postgres reads the lock table once per statement, not once per run.
  goneFor: (column: string) =>
    `(${column} LIKE '%${LIVE_SUFFIX}' AND hashtext(${column})::oid NOT IN (
       SELECT l.objid FROM pg_locks AS l
       WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
         AND l.classid = hashtext('deployment replica')::oid
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())))`,
};

/** A run settled after its owner was lost, with its new status (and error, when it failed). */
export type SettledRun = LeasedRun & { status: string; error: string | null };

const EXPIRED_REASON =
  'The replica executing this run was lost (killed, crashed, or it stopped renewing its lease) on each of its attempts; the run was not resumed.';
/** As the Agent Server: a run whose worker was lost is tried at most this many times. */
const MAX_ATTEMPTS = 3;

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

    /** The cancel requested on `owner`'s running run, if any. */
    async cancelRequested(owner: string, runId: string): Promise<CancelAction | null> {
      const { rows } = await pool.query<{ cancel_action: CancelAction | null }>(
        `SELECT cancel_action FROM deployment.runs
         WHERE run_id = $1 AND owner = $2 AND status = 'running'`,
        [runId, owner],
      );
      return rows[0]?.cancel_action ?? null;
    },

    /**
     * Running runs whose lease has expired (their replica died or hangs) or whose owner no longer
     * holds its liveness lock (its process ended; or its session is being reopened).
     */
    async orphaned(): Promise<OrphanedRun[]> {
      const { rows } = await pool.query<OrphanedRun>(
        `SELECT run_id, thread_id, cancel_action, start_checkpoint_id, owner,
           lease_until < now() AS lease_expired
         FROM deployment.runs
         WHERE status = 'running' AND (lease_until < now() OR ${ownerAlive.goneFor('owner')})`,
      );
      return rows;
    },

    /**
     * Settles a run whose lease has expired, as the Agent Server handles a run its worker lost:
     * a requested interrupt makes it `interrupted`; with no request it goes back to the queue
     * with what it wrote deleted (it starts over), up to its third attempt, after which it ends
     * in `error`. A requested rollback is left to the caller (it deletes the run with its
     * checkpoints). `deadOwner`: the owner a sweeper found without its liveness lock, whose run
     * is settled then even within its lease (the lock is read again here). Answers the run and
     * its new status when this call settled it, `undefined` when another replica did (or the
     * lease was renewed).
     */
    settleExpired(runId: string, deadOwner = ''): Promise<SettledRun | undefined> {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<SettledRun>(
          `UPDATE deployment.runs SET owner = NULL, lease_until = NULL, updated_at = now(),
             status = CASE WHEN cancel_action = 'interrupt' THEN 'interrupted'
                           WHEN cancel_action IS NULL AND attempt < $3 THEN 'pending'
                           ELSE 'error' END,
             error = CASE WHEN cancel_action IS NULL AND attempt >= $3 THEN $2 ELSE NULL END
           WHERE run_id = $1 AND status = 'running' AND (lease_until < now()
             OR (owner = $4 AND ${ownerAlive.goneFor('$4')}))
           RETURNING run_id, thread_id, cancel_action, start_checkpoint_id, status, error`,
          [runId, EXPIRED_REASON, MAX_ATTEMPTS, deadOwner],
        );
        const settled = rows[0];
        if (settled?.status === 'pending') {
          await deleteOffChain(client, settled.thread_id, settled.start_checkpoint_id);
        }
        return settled;
      });
    },

    /**
     * Hands a run this replica stopped at shutdown back to the queue, as the Agent Server
     * re-queues at the end of its grace period: `pending` again, with what it wrote so far
     * deleted (it starts over from its first checkpoint on whichever replica takes it), in one
     * transaction. `false` when the run is no longer this owner's running run, or when a cancel
     * was requested on it (the caller settles it as asked instead).
     */
    requeue(owner: string, runId: string, threadId: string, startCheckpointId: string | null) {
      return inTransaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE deployment.runs SET status = 'pending', owner = NULL, lease_until = NULL,
             start_checkpoint_id = NULL, updated_at = now()
           WHERE run_id = $1 AND owner = $2 AND status = 'running' AND cancel_action IS NULL`,
          [runId, owner],
        );
        if (!rowCount) return false;
        await deleteOffChain(client, threadId, startCheckpointId);
        return true;
      });
    },
  };
}

export type RunLeases = ReturnType<typeof createRunLeases>;
