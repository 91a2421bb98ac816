import type Database from 'better-sqlite3';

/**
 * Deletes a stateless run's thread with everything on it (runs, checkpoints, pending writes),
 * as the platform does once such a run has finished (`on_completion: delete`, the default).
 */
export function createTemporaryThreadRemoval(db: Database.Database) {
  const statements = [
    'DELETE FROM writes WHERE thread_id = ?',
    'DELETE FROM checkpoints WHERE thread_id = ?',
    'DELETE FROM runs WHERE thread_id = ?',
    'DELETE FROM threads WHERE thread_id = ?',
  ].map((sql) => db.prepare<[string]>(sql));
  return db.transaction((threadId: string) => {
    statements.forEach((statement) => statement.run(threadId));
  });
}
