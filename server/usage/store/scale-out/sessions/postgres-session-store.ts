import type pg from 'pg';
import { isConsoleRole } from '@contracts/console-roles';
import { withAdvisoryLock } from '@server/db/postgres';
import type {
  ConsoleSessionStore,
  StoredConsoleSession,
} from '@server/usage/store/console-session-store';

/** Any fixed number: replicas starting together create the table one after the other. */
const SESSION_TABLE_LOCK = 7_240_040;

/**
 * The console's sign-ins in schema `usage`, created when missing (apart from the numbered
 * migrations, as DuckDB's twin is), so that every replica on this database sees them.
 */
export const ensureSessionTable = (pool: pg.Pool): Promise<void> =>
  withAdvisoryLock(pool, SESSION_TABLE_LOCK, async () => {
    await pool.query(`CREATE TABLE IF NOT EXISTS usage.console_sessions (
      id_hash text PRIMARY KEY,
      mode text NOT NULL,
      name text NOT NULL,
      role text NOT NULL,
      sealed_key text,
      created_at_ms bigint NOT NULL,
      last_seen_at_ms bigint NOT NULL
    )`);
  });

interface SessionRow {
  id_hash: string;
  mode: string;
  name: string;
  role: string;
  sealed_key: string | null;
  created_at_ms: string;
  last_seen_at_ms: string;
}

function toSession(row: SessionRow): StoredConsoleSession | undefined {
  if ((row.mode !== 'apikey' && row.mode !== 'oidc') || !isConsoleRole(row.role)) {
    return undefined;
  }
  return {
    idHash: row.id_hash,
    mode: row.mode,
    name: row.name,
    role: row.role,
    sealedKey: row.sealed_key,
    createdAtMs: Number(row.created_at_ms),
    lastSeenAtMs: Number(row.last_seen_at_ms),
  };
}

export function createPostgresSessionStore(pool: pg.Pool): ConsoleSessionStore {
  return {
    async create(session) {
      await pool.query(
        `INSERT INTO usage.console_sessions
           (id_hash, mode, name, role, sealed_key, created_at_ms, last_seen_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          session.idHash,
          session.mode,
          session.name,
          session.role,
          session.sealedKey,
          session.createdAtMs,
          session.lastSeenAtMs,
        ],
      );
    },
    async find(idHash) {
      const { rows } = await pool.query<SessionRow>(
        `SELECT id_hash, mode, name, role, sealed_key, created_at_ms, last_seen_at_ms
         FROM usage.console_sessions WHERE id_hash = $1`,
        [idHash],
      );
      const [row] = rows;
      return row && toSession(row);
    },
    async touch(idHash, lastSeenAtMs) {
      await pool.query(
        `UPDATE usage.console_sessions SET last_seen_at_ms = greatest(last_seen_at_ms, $2)
         WHERE id_hash = $1`,
        [idHash, lastSeenAtMs],
      );
    },
    async revoke(idHash) {
      await pool.query('DELETE FROM usage.console_sessions WHERE id_hash = $1', [idHash]);
    },
    async purge(idleBeforeMs, startedBeforeMs) {
      const { rowCount } = await pool.query(
        'DELETE FROM usage.console_sessions WHERE last_seen_at_ms < $1 OR created_at_ms < $2',
        [idleBeforeMs, startedBeforeMs],
      );
      return rowCount ?? 0;
    },
  };
}
