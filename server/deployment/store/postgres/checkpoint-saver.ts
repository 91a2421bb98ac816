import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';

/**
 * The official Postgres checkpointer with branch-unique channel versions, as its Python twin
 * writes them (`<counter>.<random>`). The JS saver counts 1, 2, 3 and stores channel values by
 * (channel, version) with `ON CONFLICT DO NOTHING`, so a state update that forks from an earlier
 * checkpoint reuses a version the old branch already wrote and reads the old value back (the fork
 * test of thread-state.test.ts caught it). Here a version is the next integer plus a random
 * fraction: ordered as before, distinct on every branch.
 */
export class BranchSafePostgresSaver extends PostgresSaver {
  override getNextVersion(current: number | undefined): number {
    return Math.floor(current ?? 0) + 1 + (Math.random() * 0.9 + 0.05);
  }
}
