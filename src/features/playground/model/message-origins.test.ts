import { describe, expect, it } from 'vitest';
import { streamedAs, weatherRun } from '@/features/playground/testing/make-outcome';
import { describeMessages, unansweredToolCalls } from './message-origins';
import { summarizeMessage, takeNewMessages } from './streamed-messages';

const sf = weatherRun('sf', 'r1');
const nyc = weatherRun('nyc', 'r2');

describe('describeMessages', () => {
  it.each([
    [
      'rollback',
      nyc,
      [...streamedAs(1, sf.slice(0, 2)), ...streamedAs(2, nyc)],
      4,
      ['r1-h', 'r1-a1'],
    ],
    [
      'interrupt',
      [...sf.slice(0, 2), ...nyc],
      [...streamedAs(1, sf.slice(0, 2)), ...streamedAs(2, nyc)],
      6,
      [],
    ],
    ['enqueue', [...sf, ...nyc], [...streamedAs(1, sf), ...streamedAs(2, nyc)], 8, []],
    ['reject', sf, streamedAs(1, sf), 4, []],
  ])(
    '%s: keeps the thread and erases what run 1 lost',
    (_name, thread, streamed, keptCount, erased) => {
      const result = describeMessages(thread, streamed);
      expect(result.kept).toHaveLength(keptCount);
      expect(result.erased.map((entry) => entry.key)).toEqual(erased);
    },
  );

  it.each([
    // Interrupt keeps run 1's unanswered tool call in the thread: a provider rejects that.
    ['kept (interrupt)', [...sf.slice(0, 2), ...nyc], 'kept', true],
    // A rollback erased it: it is in no history a model reads, so no warning.
    ['erased (rollback)', nyc, 'erased', false],
  ] as const)('flags an unanswered tool call %s: %s', (_name, thread, list, flagged) => {
    const result = describeMessages(
      [...thread],
      [...streamedAs(1, sf.slice(0, 2)), ...streamedAs(2, nyc)],
    );
    const toolCall = result[list].find((entry) => entry.key === 'r1-a1');
    expect(toolCall?.unansweredToolCall).toBe(flagged);
  });

  it('tags each kept message with the run that streamed it, null when none did', () => {
    const result = describeMessages([...sf.slice(0, 1), ...nyc.slice(0, 1)], streamedAs(2, nyc));
    expect(result.kept.map((entry) => entry.run)).toEqual([null, 2]);
  });
});

describe('unansweredToolCalls', () => {
  it.each([
    ['a whole run', sf, []],
    ['a run stopped mid-tool', sf.slice(0, 2), ['r1-a1']],
    ['an interrupt followed by run 2', [...sf.slice(0, 2), ...nyc], ['r1-a1']],
    ['no messages', [], []],
  ])('%s', (_name, messages, flagged) => {
    expect([...unansweredToolCalls(messages)]).toEqual(flagged);
  });
});

describe('takeNewMessages', () => {
  it('keeps each message with the first values event that carried it', () => {
    const seen = new Set<string>();
    expect(takeNewMessages({ messages: sf.slice(0, 1) }, seen).map((m) => m.id)).toEqual(['r1-h']);
    expect(takeNewMessages({ messages: sf.slice(0, 2) }, seen).map((m) => m.id)).toEqual(['r1-a1']);
    expect(takeNewMessages({ messages: [...sf.slice(0, 2), nyc[0]] }, seen)).toHaveLength(1);
    expect(takeNewMessages({}, seen)).toEqual([]);
  });
});

describe('summarizeMessage', () => {
  it.each([
    [sf[0], "Human: what's the weather in sf?"],
    [sf[1], 'AI · tool call get_weather'],
    [sf[2], 'Tool result · get_weather: Sunny in sf.'],
    [sf[3], 'AI: Here is the weather in sf.'],
  ])('%j -> %s', (message, words) => {
    expect(message && summarizeMessage(message)).toBe(words);
  });
});
