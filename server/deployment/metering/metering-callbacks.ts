import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Serialized } from '@langchain/core/load/serializable';
import type { ChainValues } from '@langchain/core/utils/types';
import type { MetricCounts } from './metric-counts';

/** LangGraph starts each task (one node execution) with a child callback tagged so. */
const TASK_TAG = /^graph:step:\d+$/;

/**
 * LangGraph's own tasks (the `__start__` task writing a graph's input) carry this tag: they are
 * not nodes of the agent. The `tasks` stream mode leaves them out itself.
 */
const HIDDEN_TAG = 'langsmith:hidden';

/**
 * Counts a node execution from a chunk of LangGraph's `tasks` stream mode: a task's start (it has
 * `triggers`; its end has `result`). With `subgraphs` on, a subgraph's tasks come too.
 */
export function countTaskChunk(
  counts: MetricCounts,
  project: string,
  payload: unknown,
  now: () => number = Date.now,
): void {
  if (typeof payload === 'object' && payload !== null && 'triggers' in payload) {
    counts.addNode(project, now());
  }
}

/**
 * Counts a run's billable work from its callback events, as `countTaskChunk` counts it from the
 * stream. One handler serves one run (the executor asks for a fresh one per run): its first chain
 * is the graph itself, one agent run; every chain tagged `graph:step:N` and not hidden is a task,
 * one node executed (subgraph nodes included). Awaited, so a run's counts are complete when it
 * settles. The tags are read, not the run name: LangChain passes the parent run id where the
 * declared signature has `runType`, so every later argument sits one place further on (the name
 * read before came out undefined, and each run counted its `__start__` task as a node).
 */
class MeteringCallbackHandler extends BaseCallbackHandler {
  name = 'usage_metering';
  private started = false;

  constructor(
    private readonly counts: MetricCounts,
    private readonly project: string,
    private readonly now: () => number,
  ) {
    super({ _awaitHandler: true });
  }

  override handleChainStart(
    _chain: Serialized,
    _inputs: ChainValues,
    _runId: string,
    _runType?: string,
    tags?: string[],
  ): void {
    if (!this.started) {
      this.started = true;
      this.counts.addRun(this.project, this.now());
    } else if (tags?.some((tag) => TASK_TAG.test(tag)) && !tags.includes(HIDDEN_TAG)) {
      this.counts.addNode(this.project, this.now());
    }
  }
}

export function createMeteringHandler(
  counts: MetricCounts,
  project: string,
  now: () => number = Date.now,
): BaseCallbackHandler {
  return new MeteringCallbackHandler(counts, project, now);
}
