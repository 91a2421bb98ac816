import type { Client } from '@langchain/langgraph-sdk';
import type { MultitaskStrategy } from '@contracts/deployment';
import type {
  DoubleTextOutcome,
  Rejection,
  RunLookup,
  StepKind,
  TimelineStep,
} from '@/features/playground/model/flow-types';
import {
  FlowCancelledError,
  FlowError,
  readHttpFailure,
  type FlowStage,
} from '@/features/playground/model/flow-error';
import { formatDuration } from '@/features/playground/model/relative-time';
import { classifyRunFate } from '@/features/playground/model/run-fate';
import { parseThreadMessages } from '@/features/playground/model/thread-messages';
import { abortable, sleep } from './abortable';

export interface DoubleTextRequest {
  assistantId: string;
  first: string;
  second: string;
  delayMs: number;
  strategy: MultitaskStrategy;
}

export interface RunDoubleTextOptions extends DoubleTextRequest {
  client: Client;
  signal: AbortSignal;
  /** Called as each step ends, so the timeline grows while the flow runs. */
  onStep?: (step: TimelineStep) => void;
  now?: () => number;
}

const userInput = (text: string) => ({ messages: [{ role: 'user', content: text }] });

/** A refusal of run 2 that is the `reject` strategy doing its job, not a failure of the flow. */
function asRejection(strategy: MultitaskStrategy, error: unknown): Rejection | null {
  if (strategy !== 'reject' || !(error instanceof FlowError)) return null;
  const failure = readHttpFailure(error.cause);
  if (!failure || failure.status < 400 || failure.status >= 500) return null;
  return [401, 403, 404].includes(failure.status) ? null : failure;
}

/**
 * The double-text demo, through the official SDK: create a thread, start run 1, wait, create run 2
 * with the strategy, join run 2 (run 1 when run 2 was rejected), read the thread state, then ask
 * for run 1. Every call is timed for the timeline. On cancel, the runs it created are cancelled
 * (best effort) and FlowCancelledError is thrown; any other failure is a FlowError naming the call.
 */
export async function runDoubleText(options: RunDoubleTextOptions): Promise<DoubleTextOutcome> {
  const { client, assistantId, strategy, signal, onStep, now = () => performance.now() } = options;
  const startedAt = now();
  const steps: TimelineStep[] = [];
  const createdRuns: string[] = [];
  let threadId: string | null = null;

  async function call<T>(stage: FlowStage | null, run: () => Promise<T>) {
    const startMs = now() - startedAt;
    try {
      const value = await abortable(signal, run());
      return { value, startMs, durationMs: now() - startedAt - startMs };
    } catch (error) {
      if (error instanceof FlowCancelledError || stage === null) throw error;
      throw new FlowError(stage, error);
    }
  }
  function record(
    kind: StepKind,
    label: string,
    timing: { startMs: number; durationMs: number },
    extra: { runId?: string; detail?: string } = {},
  ) {
    const step: TimelineStep = { kind, label, ...timing, ...extra };
    steps.push(step);
    onStep?.(step);
  }

  try {
    const thread = await call('thread-create', () => client.threads.create({ signal }));
    threadId = thread.value.thread_id;
    record('thread-created', 'Thread created', thread, { detail: threadId });

    const run1 = await call('run1-create', () =>
      client.runs.create(thread.value.thread_id, assistantId, {
        input: userInput(options.first),
        signal,
      }),
    );
    const run1Id = run1.value.run_id;
    createdRuns.push(run1Id);
    record('run1-created', 'Run 1 created', run1, { runId: run1Id });

    if (options.delayMs > 0) {
      const waited = await call(null, () => sleep(options.delayMs, signal));
      record('waited', `Waited ${formatDuration(options.delayMs)}`, waited);
    }

    let run2Id: string | null = null;
    let rejection: Rejection | null = null;
    const run2Start = now() - startedAt;
    try {
      const run2 = await call('run2-create', () =>
        client.runs.create(threadId ?? '', assistantId, {
          input: userInput(options.second),
          multitaskStrategy: strategy,
          signal,
        }),
      );
      run2Id = run2.value.run_id;
      createdRuns.push(run2Id);
      record('run2-created', `Run 2 created (${strategy})`, run2, { runId: run2Id });
    } catch (error) {
      rejection = asRejection(strategy, error);
      if (!rejection) throw error;
      const timing = { startMs: run2Start, durationMs: now() - startedAt - run2Start };
      record('run2-rejected', 'Run 2 rejected', timing, {
        detail: `${rejection.status}: ${rejection.message}`,
      });
    }

    // After a rejection run 1 goes on: wait for it, so the thread shows what it wrote.
    const joinedId = run2Id ?? run1Id;
    const joined = await call('run-join', async () => {
      await client.runs.join(thread.value.thread_id, joinedId, { signal });
      return client.runs.get(thread.value.thread_id, joinedId, { signal });
    });
    record(
      run2Id ? 'run2-finished' : 'run1-finished',
      run2Id ? 'Run 2 finished' : 'Run 1 finished',
      joined,
      { runId: joinedId, detail: `status ${joined.value.status}` },
    );

    const state = await call('state-read', () =>
      client.threads.getState(thread.value.thread_id, undefined, { signal }),
    );
    const messages = parseThreadMessages(state.value);
    record('state-read', 'Thread state read', state, { detail: `${messages.length} messages` });

    const lookup = await call('run1-lookup', async (): Promise<RunLookup> => {
      try {
        const run = await client.runs.get(thread.value.thread_id, run1Id, { signal });
        return { kind: 'found', status: run.status };
      } catch (error) {
        const failure = readHttpFailure(error);
        if (!failure) throw error;
        return { kind: 'http-error', ...failure };
      }
    });
    const run1Lookup = lookup.value;
    record('run1-looked-up', 'Run 1 looked up', lookup, {
      runId: run1Id,
      detail:
        run1Lookup.kind === 'found'
          ? `status ${run1Lookup.status}`
          : `${run1Lookup.status}: ${run1Lookup.message}`,
    });

    return {
      strategy,
      threadId: thread.value.thread_id,
      run1Id,
      run2Id,
      run2Status: run2Id ? joined.value.status : null,
      rejection,
      run1Lookup,
      fate: classifyRunFate({ strategy, rejection, run1Lookup }),
      steps,
      messages,
      rawState: state.value,
      totalMs: now() - startedAt,
    };
  } catch (error) {
    if (signal.aborted && threadId !== null) {
      const id = threadId;
      // Best effort, not awaited: the user asked to stop, not to wait for the cleanup.
      void Promise.allSettled(createdRuns.map((runId) => client.runs.cancel(id, runId)));
    }
    throw signal.aborted ? new FlowCancelledError() : error;
  }
}
