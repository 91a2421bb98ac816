import type pg from 'pg';
import { migrate as migrateSchema, withAdvisoryLock } from '@server/db/postgres';

/** Every table of the deployment API lives in this schema (the usage service has `usage`). */
export const SCHEMA = 'deployment';

/**
 * The schema's migrations, in order; the position is the version. Append, never edit: a
 * database records the versions it has applied in `deployment.migrations`.
 */
const MIGRATIONS = [
  `CREATE TABLE deployment.threads (
     thread_id  text PRIMARY KEY,
     seq        bigserial NOT NULL,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL,
     metadata   json NOT NULL
   );
   CREATE TABLE deployment.runs (
     seq                bigserial PRIMARY KEY,
     run_id             text NOT NULL UNIQUE,
     thread_id          text NOT NULL REFERENCES deployment.threads (thread_id),
     assistant_id       text NOT NULL,
     status             text NOT NULL,
     multitask_strategy text,
     created_at         timestamptz NOT NULL,
     updated_at         timestamptz NOT NULL,
     metadata           json NOT NULL,
     input              json NOT NULL,
     error              text,
     kwargs             json NOT NULL
   );
   CREATE INDEX runs_by_thread ON deployment.runs (thread_id, seq);
   CREATE INDEX runs_active ON deployment.runs (status) WHERE status IN ('pending', 'running');
   CREATE UNIQUE INDEX one_running_run_per_thread ON deployment.runs (thread_id)
     WHERE status = 'running';
   CREATE TABLE deployment.assistants (
     assistant_id text PRIMARY KEY, seq bigserial NOT NULL, graph_id text NOT NULL,
     name text NOT NULL, description text, config json NOT NULL, context json NOT NULL,
     metadata json NOT NULL, version integer NOT NULL,
     created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL
   );
   CREATE TABLE deployment.assistant_versions (
     assistant_id text NOT NULL, version integer NOT NULL, graph_id text NOT NULL,
     name text NOT NULL, description text, config json NOT NULL, context json NOT NULL,
     metadata json NOT NULL, created_at timestamptz NOT NULL,
     PRIMARY KEY (assistant_id, version)
   );
   CREATE TABLE deployment.crons (
     cron_id text PRIMARY KEY, assistant_id text NOT NULL, thread_id text,
     schedule text NOT NULL, payload json NOT NULL, metadata json NOT NULL,
     end_time text, next_run_date text, enabled boolean NOT NULL, on_run_completed text,
     user_id text, created_at text NOT NULL, updated_at text NOT NULL
   );
   CREATE INDEX crons_due ON deployment.crons (enabled, next_run_date);
   CREATE TABLE deployment.store_items (
     namespace text NOT NULL, key text NOT NULL, value json NOT NULL,
     created_at text NOT NULL, updated_at text NOT NULL, PRIMARY KEY (namespace, key)
   );`,
  // Cluster mode: which replica executes a run, until when its lease holds, and a cancel
  // request the owner re-checks on each heartbeat (Redis may drop the message).
  `ALTER TABLE deployment.runs
     ADD COLUMN owner text,
     ADD COLUMN lease_until timestamptz,
     ADD COLUMN cancel_action text,
     ADD COLUMN start_checkpoint_id text,
     ADD COLUMN attempt integer NOT NULL DEFAULT 0;
   CREATE INDEX runs_leases ON deployment.runs (lease_until) WHERE status = 'running';`,
  // A rollback in one round trip instead of six (BEGIN, three checkpoint deletes, the run's,
  // COMMIT): the history back to a head checkpoint, and the run record, in one statement. The
  // checkpointer's tables are created after the migrations; PL/pgSQL resolves them when called.
  `CREATE FUNCTION deployment.roll_back_to(p_thread text, p_head text, p_run text)
   RETURNS integer LANGUAGE plpgsql AS $$
   DECLARE
     kept text[];
     deleted integer;
   BEGIN
     -- The head checkpoint and its ancestors: the history that stays.
     WITH RECURSIVE chain(id) AS (
       SELECT p_head WHERE p_head IS NOT NULL
       UNION
       SELECT c.parent_checkpoint_id FROM deployment.checkpoints c JOIN chain ON c.checkpoint_id = chain.id
       WHERE c.thread_id = p_thread AND c.checkpoint_ns = '' AND c.parent_checkpoint_id IS NOT NULL
     ) SELECT coalesce(array_agg(id), '{}') INTO kept FROM chain;
     DELETE FROM deployment.checkpoint_writes
       WHERE thread_id = p_thread AND checkpoint_id <> ALL (kept);
     DELETE FROM deployment.checkpoints
       WHERE thread_id = p_thread AND checkpoint_id <> ALL (kept);
     GET DIAGNOSTICS deleted = ROW_COUNT;
     -- Channel values that no remaining checkpoint references.
     DELETE FROM deployment.checkpoint_blobs b WHERE b.thread_id = p_thread AND NOT EXISTS (
       SELECT 1 FROM deployment.checkpoints c
       WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
         AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version);
     IF p_run IS NOT NULL THEN
       DELETE FROM deployment.runs WHERE run_id = p_run;
     END IF;
     RETURN deleted;
   END $$;`,
  // The thread lock and the first read under it in one round trip: the cluster's thread lock
  // takes the advisory lock, then returns the thread's active runs. The function is VOLATILE, so
  // its SELECT takes a snapshot of its own once the lock is held: it sees every change the
  // previous holder committed before unlocking.
  `CREATE FUNCTION deployment.lock_thread(p_thread text)
   RETURNS SETOF deployment.runs LANGUAGE plpgsql VOLATILE AS $$
   BEGIN
     PERFORM pg_advisory_lock(hashtextextended(p_thread, 0));
     RETURN QUERY SELECT * FROM deployment.runs
       WHERE thread_id = p_thread AND status IN ('pending', 'running') ORDER BY seq;
   END $$;`,
  // Threads' time to live, deleted with the thread; the sweep reads it by thread.
  `CREATE TABLE deployment.thread_ttls (
     thread_id text PRIMARY KEY REFERENCES deployment.threads (thread_id) ON DELETE CASCADE,
     strategy  text NOT NULL,
     minutes   double precision NOT NULL,
     pruned_at timestamptz
   );`,
  // Store items that expire: when (ISO text, as the item's other times), and after how long a
  // read that refreshes them pushes that back.
  `ALTER TABLE deployment.store_items ADD COLUMN expires_at text, ADD COLUMN ttl_minutes double precision;
   CREATE INDEX store_items_expiry ON deployment.store_items (expires_at) WHERE expires_at IS NOT NULL;`,
];

/** Any fixed number: every replica takes this lock before migrating, so one migrates at a time. */
const MIGRATION_LOCK = 7_252_025;

/**
 * Brings the schema up to date, and the official checkpointer's tables with it (`setup`). Safe
 * when several replicas start at once: an advisory lock serializes them, each applied version is
 * recorded in the transaction that applies it, and a replica that waited finds nothing left to
 * do.
 */
export async function migrate(pool: pg.Pool, setupCheckpointer: () => Promise<void>) {
  await withAdvisoryLock(pool, MIGRATION_LOCK, async () => {
    await migrateSchema(
      pool,
      { schema: SCHEMA, table: 'migrations', named: false },
      MIGRATIONS.map((sql, index) => ({ version: index + 1, sql })),
    );
    // The checkpointer's own migrations are not safe to run concurrently; under the lock they are.
    await setupCheckpointer();
  });
}
