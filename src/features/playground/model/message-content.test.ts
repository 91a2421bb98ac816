import { describe, expect, it } from 'vitest';
import type { MessageContent } from '@contracts/deployment';
import { contentToText } from './message-content';

describe('contentToText', () => {
  it.each<[string, MessageContent, string]>([
    ['a string as is', "what's the weather in nyc?", "what's the weather in nyc?"],
    ['an empty string', '', ''],
    ['one text part', [{ type: 'text', text: 'hello' }], 'hello'],
    [
      'text parts joined by lines',
      [
        { type: 'text', text: 'first' },
        { type: 'text', text: 'second' },
      ],
      'first\nsecond',
    ],
    [
      'a placeholder for non-text parts',
      [
        { type: 'text', text: 'look:' },
        { type: 'image_url', image_url: 'https://x' },
      ],
      'look:\n[image_url]',
    ],
    [
      'empty text parts dropped',
      [
        { type: 'text', text: '' },
        { type: 'text', text: 'x' },
      ],
      'x',
    ],
    ['a text part without text as a placeholder', [{ type: 'text' }], '[text]'],
    ['an empty array', [], ''],
  ])('%s', (_name, content, expected) => {
    expect(contentToText(content)).toBe(expected);
  });
});
