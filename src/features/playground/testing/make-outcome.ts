import type { MultitaskStrategy } from '@contracts/deployment';
import type { DoubleTextOutcome, RunLookup } from '@/features/playground/model/flow-types';
import { classifyRun2Fate, classifyRunFate } from '@/features/playground/model/run-fate';
import type { StreamedMessage } from '@/features/playground/model/streamed-messages';
import type { ThreadMessage } from '@/features/playground/model/thread-messages';

/** One run of the demo agent: question, tool call, tool answer, final answer. */
export function weatherRun(city: string, prefix: string): ThreadMessage[] {
  return [
    { type: 'human', id: `${prefix}-h`, content: `what's the weather in ${city}?` },
    {
      type: 'ai',
      id: `${prefix}-a1`,
      content: '',
      tool_calls: [{ id: `${prefix}-c1`, name: 'get_weather', args: { city } }],
    },
    {
      type: 'tool',
      id: `${prefix}-t`,
      content: `Sunny in ${city}.`,
      name: 'get_weather',
      tool_call_id: `${prefix}-c1`,
    },
    { type: 'ai', id: `${prefix}-a2`, content: `Here is the weather in ${city}.`, tool_calls: [] },
  ];
}

export function streamedAs(run: 1 | 2, messages: ThreadMessage[], fromMs = 0): StreamedMessage[] {
  return messages.map((message, index) => ({
    run,
    atMs: fromMs + index * 100,
    key: message.id ?? '',
    message,
  }));
}

/**
 * A finished double-text as the flow returns it; by default a rollback where run 1 streamed its
 * question and tool call, then was deleted, and the thread holds run 2's four messages.
 */
export function makeOutcome(
  changes: Partial<DoubleTextOutcome> & { strategy?: MultitaskStrategy } = {},
): DoubleTextOutcome {
  const strategy = changes.strategy ?? 'rollback';
  const run1Lookup: RunLookup = changes.run1Lookup ?? {
    kind: 'http-error',
    status: 404,
    message: 'not found',
  };
  const rejection = changes.rejection ?? null;
  const run2Status = changes.run2Status === undefined ? 'success' : changes.run2Status;
  const nyc = weatherRun('nyc', 'r2');
  return {
    strategy,
    threadId: 'thread-1',
    run1Id: 'run-1',
    run2Id: 'run-2',
    run2Status,
    rejection,
    run1Lookup,
    run1End: { kind: 'error', error: 'RunRolledBack', message: 'rolled back' },
    fate: classifyRunFate({ strategy, rejection, run1Lookup }),
    run2Fate: classifyRun2Fate(rejection, run2Status),
    steps: [{ kind: 'thread-created', label: 'Thread created', startMs: 0, durationMs: 5 }],
    streamed: [...streamedAs(1, weatherRun('sf', 'r1').slice(0, 2)), ...streamedAs(2, nyc, 1000)],
    messages: nyc,
    rawState: { values: { messages: nyc } },
    graphId: 'agent',
    totalMs: 1500,
    ...changes,
  };
}
