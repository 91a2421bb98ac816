import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { Serialized } from '@langchain/core/load/serializable';
import type { ChainValues } from '@langchain/core/utils/types';
import type { MetricCounts } from './metric-counts';

/** LangGraph starts each task (one node execution) with a child callback tagged so. */
const TASK_TAG = /^graph:step:\d+$/;

/** The task that writes a run's input into the graph: LangGraph's own, not a node of the agent. */
const INPUT_TASK = '__start__';

/**
 * Counts a run's billable work from its callback events. One handler serves one run (the
 * executor asks for fresh callbacks per run): its first chain is the graph itself, one agent
 * run; every chain tagged `graph:step:N` is a task, one node executed (subgraph nodes included,
 * the input-writing `__start__` task not). Awaited, so a run's counts are complete when it settles.
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
    _metadata?: Record<string, unknown>,
    runName?: string,
  ): void {
    if (!this.started) {
      this.started = true;
      this.counts.addRun(this.project, this.now());
    } else if (runName !== INPUT_TASK && tags?.some((tag) => TASK_TAG.test(tag))) {
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
