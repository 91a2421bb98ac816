import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Opens (and migrates) the deployment database: one SQLite file holding our `threads` and `runs`
 * tables next to the LangGraph checkpointer's `checkpoints` and `writes`, so a rollback can delete
 * a run's record and its checkpoints on one connection.
 */
export function openDeploymentDatabase(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'deployment.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS threads (
      thread_id  TEXT PRIMARY KEY,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      metadata   TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS runs (
      seq                 INTEGER PRIMARY KEY AUTOINCREMENT,
      run_id              TEXT NOT NULL UNIQUE,
      thread_id           TEXT NOT NULL REFERENCES threads(thread_id),
      assistant_id        TEXT NOT NULL,
      status              TEXT NOT NULL,
      multitask_strategy  TEXT,
      created_at          TEXT NOT NULL,
      updated_at          TEXT NOT NULL,
      metadata            TEXT NOT NULL,
      input               TEXT NOT NULL,
      error               TEXT,
      kwargs              TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX IF NOT EXISTS runs_by_thread ON runs (thread_id, seq);
    CREATE INDEX IF NOT EXISTS runs_by_status ON runs (status);
  `);
  // Databases from before streaming have no kwargs column (stream modes, breakpoints, ...).
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(runs)').all();
  if (!columns.some((column) => column.name === 'kwargs')) {
    db.exec(`ALTER TABLE runs ADD COLUMN kwargs TEXT NOT NULL DEFAULT '{}'`);
  }
  return db;
}
