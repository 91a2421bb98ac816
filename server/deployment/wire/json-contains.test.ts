import { describe, expect, it } from 'vitest';
import { jsonContains } from './json-contains';

describe('jsonContains (jsonb @>)', () => {
  it.each([
    [{ a: 1, b: 2 }, { a: 1 }, true],
    [{ a: 1 }, { a: 2 }, false],
    [{ a: 1 }, { b: 1 }, false],
    [{ a: { b: 1, c: 2 } }, { a: { b: 1 } }, true],
    [{ tags: ['x', 'y'] }, { tags: ['y'] }, true],
    [{ tags: ['x'] }, { tags: ['z'] }, false],
    [{ a: null }, { a: null }, true],
    [{}, {}, true],
    [{ messages: [{ type: 'human', content: 'hi' }] }, { messages: [{ content: 'hi' }] }, true],
    ['text', 'text', true],
    [1, '1', false],
  ])('%j contains %j: %s', (container, contained, expected) => {
    expect(jsonContains(container, contained)).toBe(expected);
  });
});
