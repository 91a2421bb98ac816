import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { AgentGraph } from '../graph/agent-graph';
import { toGraphInput } from '../graph/graph-input';
import type { StopSignals } from '../graph/stop-signals';
import type { RunEvents } from './run-events';
import type { RunTracing } from './run-tracing';
import type { RunRecord, RunStore } from '../store/run-store';

/** Why a run was stopped from outside; decides what its record becomes. */
export type StopReason = 'interrupt' | 'rollback' | 'shutdown';

/** What `stop` reports about the run it stopped, for the caller to roll back. */
export interface StoppedRun {
  run: RunRecord;
  /** Whether the graph was started; if so, `startCheckpointId` is the head it started from. */
  started: boolean;
  startCheckpointId: string | null;
}

interface ExecutingRun extends StoppedRun {
  controller: AbortController;
  stopReason?: StopReason;
  done: Promise<void>;
}

interface ExecutorDeps {
  graph: AgentGraph;
  checkpointer: BaseCheckpointSaver;
  stopSignals: StopSignals;
  runs: RunStore;
  events: RunEvents;
  /** Traces each run with the langsmith SDK when set (see run-tracing.ts). */
  tracing?: RunTracing;
}

/**
 * Executes runs, one at a time per thread, oldest pending run first. `kick` is called whenever a
 * run may have become startable (created, or the previous one ended), so runs start at once.
 */
export function createRunExecutor({
  graph,
  checkpointer,
  stopSignals,
  runs,
  events,
  tracing,
}: ExecutorDeps) {
  const executing = new Map<string, ExecutingRun>();
  let closed = false;

  async function execute(entry: ExecutingRun): Promise<void> {
    const { run, controller } = entry;
    const config = { configurable: { thread_id: run.thread_id } };
    const head = await checkpointer.getTuple(config);
    entry.startCheckpointId = head?.config.configurable?.checkpoint_id ?? null;
    if (controller.signal.aborted) return;
    entry.started = true;
    stopSignals.set(run.thread_id, controller.signal);
    try {
      await graph.invoke(toGraphInput(run.input), { ...config, ...tracing?.runConfig(run.run_id) });
    } finally {
      stopSignals.delete(run.thread_id);
    }
  }

  function finish(entry: ExecutingRun, error: unknown): void {
    const { run, stopReason } = entry;
    if (stopReason === 'interrupt' || stopReason === 'shutdown') {
      runs.setStatus(run.run_id, 'interrupted');
    } else if (stopReason === undefined && error === undefined) {
      runs.setStatus(run.run_id, 'success');
    } else if (stopReason === undefined) {
      const message = error instanceof Error ? error.message : String(error);
      runs.setStatus(run.run_id, 'error', message);
    }
    // A rolled-back run is deleted by whoever stopped it, who then notifies its joiners.
    if (stopReason !== 'rollback') events.notify(run.run_id);
  }

  function kick(threadId: string): void {
    if (closed || executing.has(threadId)) return;
    const next = runs.active(threadId).find((run) => run.status === 'pending');
    if (!next) return;
    runs.setStatus(next.run_id, 'running');
    const entry: ExecutingRun = {
      run: next,
      controller: new AbortController(),
      started: false,
      startCheckpointId: null,
      done: Promise.resolve(),
    };
    entry.done = execute(entry).then(
      () => finish(entry, undefined),
      (error: unknown) => finish(entry, error),
    );
    void entry.done.finally(() => {
      executing.delete(threadId);
      if (entry.stopReason === undefined) kick(threadId);
    });
    executing.set(threadId, entry);
  }

  /** Aborts the thread's executing run (if any) and resolves once it has fully settled. */
  async function stop(threadId: string, reason: StopReason): Promise<StoppedRun | undefined> {
    const entry = executing.get(threadId);
    if (!entry) return undefined;
    entry.stopReason = reason;
    entry.controller.abort(new Error(`Run ${entry.run.run_id} stopped: ${reason}`));
    await entry.done;
    return { run: entry.run, started: entry.started, startCheckpointId: entry.startCheckpointId };
  }

  return {
    kick,
    stop,
    isExecuting: (threadId: string, runId: string) => executing.get(threadId)?.run.run_id === runId,
    executingCount: () => executing.size,
    /** Stops every executing run (marked interrupted); pending runs stay for the next start. */
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...executing.keys()].map((threadId) => stop(threadId, 'shutdown')));
    },
  };
}

export type RunExecutor = ReturnType<typeof createRunExecutor>;
