import type { LangGraphRunnableConfig } from '@langchain/langgraph';

/** Finds the stop signal of the run a node is executing for. */
export type StopSignalOf = (config: LangGraphRunnableConfig) => AbortSignal | undefined;

/**
 * The stop signal of the run executing on each thread (at most one per thread), which nodes look
 * up by `thread_id`. Why not `invoke(input, { signal })`: with a signal, LangChain rejects
 * `invoke` the moment it aborts, while the graph may still be saving checkpoints. A node that
 * throws instead ends the graph, and `invoke` settles only after every checkpoint write has
 * landed, so the rollback that follows deletes all of them.
 */
export function createStopSignals() {
  const byThread = new Map<string, AbortSignal>();
  return {
    signalOf: ((config) => {
      const threadId: unknown = config.configurable?.thread_id;
      return typeof threadId === 'string' ? byThread.get(threadId) : undefined;
    }) satisfies StopSignalOf,
    set: (threadId: string, signal: AbortSignal) => byThread.set(threadId, signal),
    delete: (threadId: string) => byThread.delete(threadId),
  };
}

export type StopSignals = ReturnType<typeof createStopSignals>;
