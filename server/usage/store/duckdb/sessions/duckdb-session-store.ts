import type { DuckDBConnection } from '@duckdb/node-api';
import { isConsoleRole } from '@contracts/console-roles';
import type {
  ConsoleSessionStore,
  StoredConsoleSession,
} from '@server/usage/store/console-session-store';
import type { DuckDbStore } from '../connection';

/**
 * The console's sign-ins, created when missing (kept apart from the numbered migrations, as the
 * limits' tables are: the feature's tables live beside its code).
 */
export async function ensureSessionTable(connection: DuckDBConnection): Promise<void> {
  await connection.run(`CREATE TABLE IF NOT EXISTS console_sessions (
    id_hash VARCHAR PRIMARY KEY,
    mode VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    role VARCHAR NOT NULL,
    sealed_key VARCHAR,
    created_at_ms BIGINT NOT NULL,
    last_seen_at_ms BIGINT NOT NULL
  )`);
}

const COLUMNS = 'id_hash, mode, name, role, sealed_key, created_at_ms, last_seen_at_ms';

function toSession(row: unknown[]): StoredConsoleSession | undefined {
  const [idHash, mode, name, role, sealedKey, createdAt, lastSeenAt] = row;
  const roleName = String(role);
  if ((mode !== 'apikey' && mode !== 'oidc') || !isConsoleRole(roleName)) return undefined;
  return {
    idHash: String(idHash),
    mode,
    name: String(name),
    role: roleName,
    sealedKey: sealedKey === null ? null : String(sealedKey),
    createdAtMs: Number(createdAt),
    lastSeenAtMs: Number(lastSeenAt),
  };
}

/**
 * Sessions on their own connections, beside the run ingestor's writer: a sign-in never waits
 * behind a batch of traces, and DuckDB keeps writes to different tables apart.
 */
export function createDuckDbSessionStore(store: DuckDbStore): ConsoleSessionStore {
  const run = <T>(work: (connection: DuckDBConnection) => Promise<T>) => store.withConnection(work);
  return {
    create: (session) =>
      run(async (connection) => {
        await connection.run(
          `INSERT INTO console_sessions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
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
      }),
    find: (idHash) =>
      run(async (connection) => {
        const reader = await connection.runAndReadAll(
          `SELECT ${COLUMNS} FROM console_sessions WHERE id_hash = $1`,
          [idHash],
        );
        const [row] = reader.getRowsJS();
        return row && toSession(row);
      }),
    touch: (idHash, lastSeenAtMs) =>
      run(async (connection) => {
        await connection.run(
          'UPDATE console_sessions SET last_seen_at_ms = greatest(last_seen_at_ms, $2) WHERE id_hash = $1',
          [idHash, lastSeenAtMs],
        );
      }),
    revoke: (idHash) =>
      run(async (connection) => {
        await connection.run('DELETE FROM console_sessions WHERE id_hash = $1', [idHash]);
      }),
    purge: (idleBeforeMs, startedBeforeMs) =>
      run(async (connection) => {
        const reader = await connection.runAndReadAll(
          `DELETE FROM console_sessions WHERE last_seen_at_ms < $1 OR created_at_ms < $2
           RETURNING id_hash`,
          [idleBeforeMs, startedBeforeMs],
        );
        return reader.getRowsJS().length;
      }),
  };
}
