import { describe, expect, it } from 'vitest';
import { findUnstorableString, MAX_JSON_DEPTH, nestsDeeperThan, readJsonText } from './json-limits';

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('nestsDeeperThan', () => {
  it.each([
    ['[]', 1, false],
    ['[[]]', 1, true],
    [arrays(256), 256, false],
    [arrays(257), 256, true],
    [objects(256), 256, false],
    [objects(257), 256, true],
    // Brackets inside strings, escaped quotes included, are text, not nesting.
    [JSON.stringify({ a: '[[[[{{{{' }), 1, false],
    [JSON.stringify({ a: 'quote \\" [[[[' }), 1, false],
    [JSON.stringify(['\\', [[]]]), 2, true],
  ])('%s deeper than %i: %s', (text, limit, expected) => {
    expect(nestsDeeperThan(text, limit)).toBe(expected);
  });
});

describe('findUnstorableString', () => {
  it.each([
    [{ a: 'plain', b: ['é', '😀', 1, null, true] }, null],
    [{ a: 'x\u0000y' }, 'body.a: holds a NUL character (\\u0000)'],
    [{ a: ['ok', { b: '\ud800' }] }, 'body.a.1.b: holds a lone UTF-16 surrogate'],
    [{ a: 'trailing \udc00' }, 'body.a: holds a lone UTF-16 surrogate'],
    [{ a: 'reversed \udc00\ud800' }, 'body.a: holds a lone UTF-16 surrogate'],
    [{ 'k\u0000': 1 }, 'body.k\u0000 (key): holds a NUL character (\\u0000)'],
    ['\u0000', 'body: holds a NUL character (\\u0000)'],
  ])('%j -> %s', (value, expected) => {
    expect(findUnstorableString(value)).toBe(expected);
  });
});

describe('readJsonText', () => {
  it('parses a body within the limits', () => {
    expect(readJsonText('{"metadata":{"a":[1,"b"]}}')).toEqual({
      ok: true,
      value: { metadata: { a: [1, 'b'] } },
    });
  });

  it.each([
    [arrays(3000), `body: nested deeper than ${MAX_JSON_DEPTH} levels`],
    ['{"a":', 'body: not valid JSON'],
    ['{"metadata":{"a":"\\u0000"}}', 'body.metadata.a: holds a NUL character (\\u0000)'],
    ['{"values":["\\ud800"]}', 'body.values.0: holds a lone UTF-16 surrogate'],
  ])('refuses %s', (text, detail) => {
    expect(readJsonText(text)).toEqual({ ok: false, detail });
  });
});
