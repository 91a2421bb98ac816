import pg from 'pg';
import { ownerAlive } from '../store/postgres/run-leases';

/** How soon a lost liveness session is opened again. */
const RECONNECT_MS = 250;

/**
 * Holds this replica's liveness lock (see `ownerAlive`) on a Postgres session of its own for as
 * long as the process lives. A killed or crashed process loses it the moment its connection
 * closes, so the other replicas take its runs over within a second or two instead of waiting out
 * the lease. A session lost while the process lives (a Postgres restart) is opened again at once;
 * the sweepers see a death for a second before acting on it, and the lease stays the bound
 * for a replica that hangs or is cut off without its connections closing. `onHeld` hears each
 * loss (`false`) and each return (`true`) of the lock: while it is lost, the others may take this
 * replica's runs, and the replica must learn of it at once (see `livenessChanged` in
 * cluster-runs.ts).
 */
export async function holdReplicaLiveness(
  connectionString: string,
  owner: string,
  onHeld: (held: boolean) => void = () => undefined,
) {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  async function acquire(): Promise<void> {
    const session = new pg.Client({
      connectionString,
      connectionTimeoutMillis: 3_000,
      // What an operator sees in pg_stat_activity for this session.
      application_name: 'deployment replica liveness',
    });
    // An error ends the session; `end` reopens it (pg emits `end` after a connection error).
    session.on('error', (error) => console.warn(`Replica liveness: ${error.message}`));
    session.on('end', () => {
      if (client === session) {
        client = undefined;
        if (!closed) onHeld(false);
      }
      if (!closed) reopenSoon();
    });
    try {
      await session.connect();
      const { rows } = await session.query<{ held: boolean }>(`SELECT ${ownerAlive.lock} AS held`, [
        owner,
      ]);
      // Not granted: the session this one replaces is not gone on the server's side yet.
      if (!rows[0]?.held) throw new Error('the liveness lock is still held by an older session');
      client = session;
      if (closed) await session.end();
      else onHeld(true);
    } catch (error) {
      console.warn(`Replica liveness: ${String(error)}`);
      await session.end().catch(() => undefined);
      reopenSoon();
    }
  }

  function reopenSoon() {
    if (retry || closed) return;
    retry = setTimeout(() => {
      retry = undefined;
      void acquire();
    }, RECONNECT_MS);
    retry.unref();
  }

  await acquire();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
