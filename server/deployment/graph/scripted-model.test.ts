import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
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
