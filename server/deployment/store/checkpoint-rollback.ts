import type Database from 'better-sqlite3';

/**
 * Returns a thread's checkpoint history to `headCheckpointId` (or to empty when null): deletes
 * every checkpoint, and every pending write, that is not that checkpoint or one of its ancestors.
 * Runs on a thread are serialized, so what lies off that chain was written by the runs being
 * rolled back. Works on the tables of `@langchain/langgraph-checkpoint-sqlite` (same connection).
 */
export function createCheckpointRollback(db: Database.Database) {
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

  return db.transaction((threadId: string, headCheckpointId: string | null) => {
    const params = { thread: threadId, head: headCheckpointId };
    deleteWrites.run(params);
    return deleteCheckpoints.run(params).changes;
  });
}
