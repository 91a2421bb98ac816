import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cityFromText, scriptedReply } from './scripted-model';

describe('cityFromText', () => {
  it.each([
    ["what's the weather in nyc?", 'nyc'],
    ['weather in New York City please', 'nyc'],
    ['how foggy is SF today', 'sf'],
    ['and in san francisco?', 'sf'],
    ['is it raining in London?', 'london'],
    ['weather in Oslo?', 'oslo'],
    ['hello there', 'unknown'],
  ])('%s -> %s', (text, city) => {
    expect(cityFromText(text)).toBe(city);
  });
});

describe('scriptedReply', () => {
  it('answers a human turn with a get_weather call for the named city', () => {
    const reply = scriptedReply([new HumanMessage('weather in nyc?')], 'call_1');
    expect(reply.tool_calls).toEqual([
      { id: 'call_1', name: 'get_weather', args: { city: 'nyc' }, type: 'tool_call' },
    ]);
  });

  it('answers a tool result with the final answer quoting it', () => {
    const messages = [
      new HumanMessage('weather in nyc?'),
      new AIMessage({ content: '', tool_calls: [{ id: 'c', name: 'get_weather', args: {} }] }),
      new ToolMessage({ content: 'Sunny.', tool_call_id: 'c', name: 'get_weather' }),
    ];
    const reply = scriptedReply(messages, 'unused');
    expect(reply.content).toBe('Here is the weather: Sunny.');
    expect(reply.tool_calls).toEqual([]);
  });

  it('reads text from content blocks', () => {
    const human = new HumanMessage({ content: [{ type: 'text', text: 'weather in sf' }] });
    expect(scriptedReply([human], 'c').tool_calls?.[0]?.args).toEqual({ city: 'sf' });
  });
});

describe('cityFromText on hostile input', () => {
  /** The expression it replaced, kept as the reference for what the scan must return. */
  const reference = (text: string) =>
    /\bin\s+([a-z][a-z .'-]*?)\s*[?.!]*$/i.exec(text.trim())?.[1]?.toLowerCase() ?? 'unknown';

  it('answers in milliseconds for 131,072 spaces between a name and a stray character', () => {
    const started = performance.now();
    expect(cityFromText(`weather in a${' '.repeat(131_072)}#`)).toBe('unknown');
    expect(cityFromText(`weather in a${' '.repeat(131_072)}?`)).toBe('a');
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('finds the same city as the old expression on short questions', () => {
    const alphabet = ['in', ' ', 'in ', 'a', 'Oslo', '.', '?', '!', "'", '-', '#', '\t', 'x'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }), (parts) => {
        const text = `weather ${parts.join('')}`;
        expect(cityFromText(text)).toBe(reference(text));
      }),
      { numRuns: 2_000 },
    );
  });
});
