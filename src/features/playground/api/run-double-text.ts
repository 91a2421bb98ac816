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
import { classifyRun2Fate, classifyRunFate } from '@/features/playground/model/run-fate';
import {
  messageKey,
  summarizeMessage,
  takeNewMessages,
  type RunNumber,
  type StreamedMessage,
} from '@/features/playground/model/streamed-messages';
import { parseThreadMessages } from '@/features/playground/model/thread-messages';
import { abortable, sleep } from './abortable';
import { readRunStream, type StreamPart } from './stream-run';

/**
 * The moment of run 1 that starts the delay before run 2: its first tool call (run 1 is then
 * provably mid-run, with the tool and a model step still to go, whatever the model's pace), or
 * its first message (for a graph that calls no tool).
 */
export type SendAfter = 'tool-call' | 'first-message';

export interface DoubleTextRequest {
  assistantId: string;
  first: string;
  second: string;
  /** Waited after `sendAfter`'s moment before run 2 is sent. */
  delayMs: number;
  /** Default `first-message`. */
  sendAfter?: SendAfter;
  strategy: MultitaskStrategy;
}

export interface RunDoubleTextOptions extends DoubleTextRequest {
  client: Client;
  signal: AbortSignal;
  /** Called as each moment happens (a call ends, a message streams in), so the view stays live. */
  onStep?: (step: TimelineStep) => void;
  /** Called as each message first arrives on run 1's or run 2's stream. */
  onMessage?: (message: StreamedMessage) => void;
  /**
   * When to open run 2's stream: at once (default), or once run 1's stream has closed. A browser
   * opens at most 6 connections to one host over HTTP/1.1, so four flows side by side (compare)
   * must not hold two streams each, or run 2's request waits for a free connection.
   */
  joinRun2?: 'at-once' | 'after-run-1';
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
 * The double-text demo, through the official SDK's streaming: create a thread, stream run 1, wait,
 * stream run 2 with the strategy (a rollback ends run 1's stream with an error event), wait for
 * both streams to close, read the thread state, then ask for run 1. Every message and call is
 * timed for the timeline. On cancel, the runs it created are cancelled (best effort) and
 * FlowCancelledError is thrown; any other failure is a FlowError naming the call.
 */
export async function runDoubleText(options: RunDoubleTextOptions): Promise<DoubleTextOutcome> {
  const { client, assistantId, strategy, signal, now = () => performance.now() } = options;
  const startedAt = now();
  const elapsed = () => now() - startedAt;
  const steps: TimelineStep[] = [];
  const streamed: StreamedMessage[] = [];
  const seen = new Set<string>();
  const createdRuns: string[] = [];
  let threadId: string | null = null;

  async function call<T>(stage: FlowStage | null, run: () => Promise<T>) {
    const startMs = elapsed();
    try {
      const value = await abortable(signal, run());
      return { value, startMs, durationMs: elapsed() - startMs };
    } catch (error) {
      if (error instanceof FlowCancelledError || stage === null) throw error;
      throw new FlowError(stage, error);
    }
  }
  function record(
    kind: StepKind,
    label: string,
    timing: { startMs: number; durationMs?: number },
    extra: Omit<TimelineStep, 'kind' | 'label' | 'startMs' | 'durationMs'> = {},
  ) {
    const step: TimelineStep = { kind, label, ...timing, ...extra };
    steps.push(step);
    options.onStep?.(step);
  }
  function onValues(run: RunNumber, values: unknown) {
    for (const message of takeNewMessages(values, seen)) {
      const item: StreamedMessage = { run, atMs: elapsed(), key: messageKey(message), message };
      streamed.push(item);
      if (run === 1) run1Spoke();
      if (run === 1 && message.type === 'ai' && message.tool_calls.length > 0) run1CalledTool();
      options.onMessage?.(item);
      record(
        'message',
        `Run ${run} · ${summarizeMessage(message)}`,
        { startMs: item.atMs },
        { run },
      );
    }
  }
  function readRun(run: RunNumber, stream: AsyncIterable<StreamPart>) {
    const handle = readRunStream(stream, { onValues: (values) => onValues(run, values) });
    const ended = handle.ended.then((end) => {
      const detail = end.kind === 'error' ? `${end.error}: ${end.message}` : 'stream closed';
      record(
        run === 1 ? 'run1-ended' : 'run2-ended',
        `Run ${run} ended`,
        { startMs: elapsed() },
        {
          run,
          detail,
        },
      );
      return end;
    });
    ended.catch(() => undefined);
    return { started: handle.started, ended };
  }
  // Resolve once run 1 has streamed its first message (its question), and its first tool call.
  let run1Spoke: () => void = () => undefined;
  const run1FirstMessage = new Promise<void>((resolve) => (run1Spoke = resolve));
  let run1CalledTool: () => void = () => undefined;
  const run1FirstToolCall = new Promise<void>((resolve) => (run1CalledTool = resolve));

  try {
    const thread = await call('thread-create', () => client.threads.create({ signal }));
    threadId = thread.value.thread_id;
    record('thread-created', 'Thread created', thread, { detail: threadId });
    const threadIdValue = threadId;

    const run1 = readRun(
      1,
      client.runs.stream(threadIdValue, assistantId, {
        input: userInput(options.first),
        streamMode: 'values',
        signal,
      }),
    );
    const run1Started = await call('run1-create', () => run1.started);
    const run1Id = run1Started.value;
    createdRuns.push(run1Id);
    record('run1-started', 'Run 1 started (streaming)', run1Started, { run: 1, runId: run1Id });
    // A run 1 that ends first (no tool call at all) does not hold run 2 back for ever.
    const moment = options.sendAfter === 'tool-call' ? run1FirstToolCall : run1FirstMessage;
    await call('run1-create', () => Promise.race([moment, run1.ended.then(() => undefined)]));

    if (options.delayMs > 0) {
      const waited = await call(null, () => sleep(options.delayMs, signal));
      record('waited', `Waited ${formatDuration(options.delayMs)}`, waited);
    }

    record('run2-sent', `Run 2 sent (${strategy})`, { startMs: elapsed() }, { run: 2 });
    let run2Id: string | null = null;
    let rejection: Rejection | null = null;
    try {
      const run2Created = await call('run2-create', () =>
        client.runs.create(threadId ?? '', assistantId, {
          input: userInput(options.second),
          multitaskStrategy: strategy,
          signal,
        }),
      );
      run2Id = run2Created.value.run_id;
      createdRuns.push(run2Id);
      record('run2-started', 'Run 2 created', run2Created, { run: 2, runId: run2Id });
    } catch (error) {
      rejection = asRejection(strategy, error);
      if (!rejection) throw error;
      record(
        'run2-rejected',
        `Run 2 refused (${rejection.status})`,
        { startMs: elapsed() },
        {
          run: 2,
          detail: rejection.message,
        },
      );
    }
    if (run2Id !== null && options.joinRun2 === 'after-run-1') {
      await call('run-join', () => run1.ended);
    }
    const run2 =
      run2Id === null
        ? null
        : readRun(
            2,
            client.runs.joinStream(threadIdValue, run2Id, { streamMode: 'values', signal }),
          );

    // Both streams close on their own: run 2's when it ends, run 1's when it ends or is stopped.
    const ends = await call('run-join', () => Promise.all([run1.ended, run2?.ended ?? null]));
    const run2Status =
      run2Id === null
        ? null
        : (await call('run-join', () => client.runs.get(threadId ?? '', run2Id ?? '', { signal })))
            .value.status;

    const state = await call('state-read', () =>
      client.threads.getState(threadId ?? '', undefined, { signal }),
    );
    const messages = parseThreadMessages(state.value);
    record('state-read', 'Thread state read', state, { detail: `${messages.length} messages` });
    // Names the tracing project; a deployment that does not say is no failure of the flow.
    const graphId = await client.threads
      .get(threadIdValue, { signal })
      .then((record) => record.metadata?.graph_id)
      .catch(() => undefined);

    const lookup = await call('run1-lookup', async (): Promise<RunLookup> => {
      try {
        const run = await client.runs.get(threadId ?? '', run1Id, { signal });
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
      run2Status,
      rejection,
      run1Lookup,
      run1End: ends.value[0],
      fate: classifyRunFate({ strategy, rejection, run1Lookup }),
      run2Fate: classifyRun2Fate(rejection, run2Status),
      steps,
      streamed,
      messages,
      rawState: state.value,
      graphId: typeof graphId === 'string' ? graphId : null,
      totalMs: elapsed(),
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
