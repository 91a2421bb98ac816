import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { RunCheckpointer } from './deployment-store';

/**
 * Makes `saver` add the executing run's metadata (its `metadata` and ids) to each checkpoint it
 * writes, as the platform does: a thread's history can then be filtered by a run's metadata
 * (`getHistory(thread, { metadata })`). LangGraph itself writes only source/step/parents. Works
 * on any backend's saver (SQLite, Postgres): it wraps `put` on the instance.
 */
export function withRunMetadata(saver: BaseCheckpointSaver): RunCheckpointer {
  const runMetadata = new Map<string, Record<string, unknown>>();
  const put = saver.put.bind(saver);
  saver.put = (config, checkpoint, metadata, newVersions) => {
    const threadId: unknown = config.configurable?.thread_id;
    const run = typeof threadId === 'string' ? runMetadata.get(threadId) : undefined;
    return put(config, checkpoint, run ? { ...run, ...metadata } : metadata, newVersions);
  };
  return { saver, runMetadata };
}
