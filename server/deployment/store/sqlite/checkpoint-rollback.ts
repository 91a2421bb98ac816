import type Database from 'better-sqlite3';
import type { CheckpointRollback } from '../deployment-store';

/**
 * Checkpoint surgery on the tables of `@langchain/langgraph-checkpoint-sqlite` (same connection
 * as `runs`), each operation one SQLite transaction. Runs on a thread are serialized, so what lies
 * off the kept chain was written by the runs being rolled back.
 */
export function createSqliteCheckpointRollback(db: Database.Database): CheckpointRollback {
  const keptChain = `
    WITH RECURSIVE chain(id) AS (
      SELECT @head WHERE @head IS NOT NULL
      UNION
      SELECT c.parent_checkpoint_id FROM checkpoints c JOIN chain ON c.checkpoint_id = chain.id
      WHERE c.thread_id = @thread AND c.checkpoint_ns = '' AND c.parent_checkpoint_id IS NOT NULL
    ) SELECT id FROM chain`;
  const deleteCheckpoints = db.prepare(
    `DELETE FROM checkpoints WHERE thread_id = @thread AND checkpoint_id NOT IN (${keptChain})`,
  );
  const deleteWrites = db.prepare(
    `DELETE FROM writes WHERE thread_id = @thread AND checkpoint_id NOT IN (${keptChain})`,
  );
  const deleteRun = db.prepare<[string]>('DELETE FROM runs WHERE run_id = ?');
  const rollback = db.transaction(
    (threadId: string, headCheckpointId: string | null, runId: string | undefined) => {
      const params = { thread: threadId, head: headCheckpointId };
      deleteWrites.run(params);
      const removed = deleteCheckpoints.run(params).changes;
      if (runId) deleteRun.run(runId);
      return removed;
    },
  );
  const threadStatements = [
    'DELETE FROM writes WHERE thread_id = ?',
    'DELETE FROM checkpoints WHERE thread_id = ?',
    'DELETE FROM runs WHERE thread_id = ?',
    'DELETE FROM threads WHERE thread_id = ?',
  ].map((sql) => db.prepare<[string]>(sql));
  const removeThread = db.transaction((threadId: string) => {
    threadStatements.forEach((statement) => statement.run(threadId));
  });
  // Checkpoint ids grow with time (uuid6), so a namespace's greatest is its latest, the one the
  // saver loads. SqliteSaver stores channel values inside each checkpoint row.
  const latest = `SELECT checkpoint_ns, max(checkpoint_id) FROM checkpoints
    WHERE thread_id = @thread GROUP BY checkpoint_ns`;
  const keepLatestStatements = ['writes', 'checkpoints'].map((table) =>
    db.prepare<{ thread: string }>(
      `DELETE FROM ${table} WHERE thread_id = @thread
       AND (checkpoint_ns, checkpoint_id) NOT IN (${latest})`,
    ),
  );
  const keepLatest = db.transaction(
    (threadId: string) =>
      keepLatestStatements.map((statement) => statement.run({ thread: threadId }).changes)[1] ?? 0,
  );

  return {
    rollback: async (threadId, headCheckpointId, runId) =>
      rollback(threadId, headCheckpointId, runId),
    removeThread: async (threadId) => removeThread(threadId),
    keepLatest: async (threadId) => keepLatest(threadId),
  };
}
