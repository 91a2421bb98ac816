import type { LangGraphRunnableConfig } from '@langchain/langgraph';

/** Finds the stop signal of the run a node is executing for. */
export type StopSignalOf = (config: LangGraphRunnableConfig) => AbortSignal | undefined;

/**
 * The stop signal of the run executing on each thread (at most one per thread), which the demo
 * graph's nodes look up by `thread_id` to end their model delay at once. The graph's stream gets
 * the same signal (runs/stream-run.ts) and ends on it; the run's write fence
 * (store/run-metadata.ts) waits for the checkpoint writes under way and refuses later ones, so
 * the rollback that follows deletes all the run wrote. (It was once the only stop: nodes threw,
 * and a stopped run went on saving its steps until its next node began.)
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
