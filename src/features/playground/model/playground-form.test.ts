import { describe, expect, it } from 'vitest';
import {
  defaultPlaygroundValues,
  playgroundFormSchema,
  toConnection,
  type PlaygroundFormInput,
} from './playground-form';

const valid = (changes: Partial<PlaygroundFormInput>) => ({
  ...defaultPlaygroundValues,
  ...changes,
});

describe('playgroundFormSchema', () => {
  it.each<[string, Partial<PlaygroundFormInput>]>([
    ['the defaults', {}],
    ['a delay of 0', { delaySeconds: 0 }],
    ['a fractional delay', { delaySeconds: 0.3 }],
    ['a URL deployment', { deployment: 'url', url: 'https://dep.example.com/' }],
    ['an empty URL while embedded', { deployment: 'embedded', url: '' }],
  ])('accepts %s', (_name, changes) => {
    expect(playgroundFormSchema.safeParse(valid(changes)).success).toBe(true);
  });

  it.each<[string, Partial<PlaygroundFormInput>, string]>([
    ['a blank first message', { first: '   ' }, 'first'],
    ['a blank second message', { second: '' }, 'second'],
    ['a negative delay', { delaySeconds: -1 }, 'delaySeconds'],
    ['an empty delay (NaN)', { delaySeconds: Number.NaN }, 'delaySeconds'],
    ['a delay over a minute', { delaySeconds: 61 }, 'delaySeconds'],
    ['an unknown strategy', { strategy: 'drop' as 'reject' }, 'strategy'],
    ['a blank assistant id', { assistantId: ' ' }, 'assistantId'],
    ['a URL deployment without URL', { deployment: 'url', url: '' }, 'url'],
    ['a URL that is no http URL', { deployment: 'url', url: 'ftp://x' }, 'url'],
  ])('refuses %s', (_name, changes, field) => {
    const result = playgroundFormSchema.safeParse(valid(changes));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });
});

describe('toConnection', () => {
  it.each([
    [{}, { kind: 'embedded' }],
    [
      { deployment: 'url' as const, url: 'https://dep.example.com//', apiKey: 'k' },
      { kind: 'url', url: 'https://dep.example.com', apiKey: 'k' },
    ],
  ])('%j -> %j', (changes, expected) => {
    expect(toConnection(playgroundFormSchema.parse(valid(changes)))).toEqual(expected);
  });
});
