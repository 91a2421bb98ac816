import type { RunnableConfig } from '@langchain/core/runnables';
import type { Checkpoint, CheckpointMetadata } from '@langchain/langgraph-checkpoint';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';

/**
 * The SQLite checkpointer, adding the executing run's metadata (its `metadata` and ids) to each
 * checkpoint it writes, as the platform does: a thread's history can then be filtered by a run's
 * metadata (`getHistory(thread, { metadata })`). LangGraph itself writes only source/step/parents.
 */
export class RunMetadataSaver extends SqliteSaver {
  /** The metadata of the run executing on each thread (set by the executor). */
  readonly runMetadata = new Map<string, Record<string, unknown>>();

  override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata) {
    const threadId: unknown = config.configurable?.thread_id;
    const run = typeof threadId === 'string' ? this.runMetadata.get(threadId) : undefined;
    const merged = run ? { ...run, ...metadata } : metadata;
    return super.put(config, checkpoint, merged);
  }
}
