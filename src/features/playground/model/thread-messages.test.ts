import { describe, expect, it } from 'vitest';
import { parseThreadMessages } from './thread-messages';

describe('parseThreadMessages', () => {
  it.each([
    ['no state', undefined],
    ['values missing', { next: [] }],
    ['values as an array', { values: [] }],
    ['messages missing', { values: {} }],
    ['messages not an array', { values: { messages: 'x' } }],
  ])('gives no messages for %s', (_name, state) => {
    expect(parseThreadMessages(state)).toEqual([]);
  });

  it('keeps every known kind with its fields', () => {
    const messages = parseThreadMessages({
      values: {
        messages: [
          { type: 'human', content: 'hi', id: 'h1' },
          {
            type: 'ai',
            content: '',
            tool_calls: [{ id: 'c1', name: 'get_weather', args: { city: 'nyc' } }],
          },
          { type: 'tool', content: 'sunny', tool_call_id: 'c1', name: 'get_weather' },
          { type: 'ai', content: [{ type: 'text', text: 'done' }] },
        ],
      },
    });
    expect(messages.map((message) => message.type)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(messages[1]).toMatchObject({ tool_calls: [{ name: 'get_weather' }] });
    expect(messages[3]).toMatchObject({ tool_calls: [] });
  });

  it.each([
    ['an unknown kind', { type: 'function', content: 'x' }, 'function', 'x'],
    ['no type at all', { content: 'x' }, 'unknown', 'x'],
    ['content of an odd shape', { type: 'remove', content: 3 }, 'remove', '3'],
  ])('keeps %s as an "other" message', (_name, raw, originalType, content) => {
    expect(parseThreadMessages({ values: { messages: [raw] } })).toEqual([
      { type: 'other', originalType, id: null, content },
    ]);
  });
});
