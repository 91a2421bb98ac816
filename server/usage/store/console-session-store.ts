import type { ConsoleRole } from '@contracts/console-roles';

/**
 * A console sign-in as stored: the session id only as its sha256 (the cookie holds the id), and
 * an apikey session's key sealed under the id, so the database alone opens no key. Times are
 * epoch milliseconds.
 */
export interface StoredConsoleSession {
  idHash: string;
  mode: 'apikey' | 'oidc';
  /** What the shell shows for the user: an oidc user's verified e-mail; never a key. */
  name: string;
  role: ConsoleRole;
  /** An apikey user's key, sealed under the session id; null for an oidc session. */
  sealedKey: string | null;
  createdAtMs: number;
  lastSeenAtMs: number;
}

/**
 * The console's sign-ins, kept in the usage service's database so that they survive a restart
 * and every replica on one database sees them. Expiry is decided above the port
 * (`server/console/auth/session-expiry.ts`); the store keeps and forgets rows.
 */
export interface ConsoleSessionStore {
  create(session: StoredConsoleSession): Promise<void>;
  find(idHash: string): Promise<StoredConsoleSession | undefined>;
  /** Records use of a session (its idle clock restarts). */
  touch(idHash: string, lastSeenAtMs: number): Promise<void>;
  /** Forgets one session (sign-out, or found expired). */
  revoke(idHash: string): Promise<void>;
  /** Forgets sessions last used before `idleBeforeMs` or started before `startedBeforeMs`. */
  purge(idleBeforeMs: number, startedBeforeMs: number): Promise<number>;
}
