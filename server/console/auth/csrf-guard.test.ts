import { describe, expect, it } from 'vitest';
import { isSameOriginRequest } from './csrf-guard';

describe('isSameOriginRequest', () => {
  it.each([
    ['its own origin', 'console.example.com', 'https://console.example.com', undefined, true],
    [
      'its own origin, another case',
      'Console.example.com',
      'https://console.EXAMPLE.com',
      undefined,
      true,
    ],
    ['its own origin with a port', '127.0.0.1:5173', 'http://127.0.0.1:5173', undefined, true],
    ['another port', '127.0.0.1:5173', 'http://127.0.0.1:5174', undefined, false],
    ['another site', 'console.example.com', 'https://evil.example', undefined, false],
    ['a sandboxed frame', 'console.example.com', 'null', undefined, false],
    [
      'no Origin, same-origin fetch metadata',
      'console.example.com',
      undefined,
      'same-origin',
      true,
    ],
    ['no Origin, same-site fetch metadata', 'console.example.com', undefined, 'same-site', false],
    ['no Origin, cross-site', 'console.example.com', undefined, 'cross-site', false],
    ['neither header', 'console.example.com', undefined, undefined, false],
    [
      'a foreign Origin wins over same-origin metadata',
      'a.example',
      'https://b.example',
      'same-origin',
      false,
    ],
  ])('%s', (_name, host, origin, secFetchSite, expected) => {
    expect(isSameOriginRequest({ host, origin, secFetchSite })).toBe(expected);
  });
});
