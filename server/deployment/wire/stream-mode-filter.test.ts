import { describe, expect, it } from 'vitest';
import { queryList, streamModeFilter, streamModeOfEvent } from './stream-mode-filter';

describe('streamModeOfEvent', () => {
  it.each([
    ['values', 'values'],
    ['updates|agent:1', 'updates'],
    ['messages/partial', 'messages'],
    ['messages/metadata|sub:2', 'messages'],
    ['messages', 'messages-tuple'],
    ['custom', 'custom'],
  ])('%s comes from %s', (event, mode) => expect(streamModeOfEvent(event)).toBe(mode));
});

describe('queryList', () => {
  it.each([
    [undefined, undefined],
    [['values'], ['values']],
    [['["values","updates"]'], ['values', 'updates']],
    [['values,updates'], ['values', 'updates']],
    [
      ['values', 'custom'],
      ['values', 'custom'],
    ],
  ])('%j reads as %j', (raw, list) => expect(queryList(raw)).toEqual(list));
});

describe('streamModeFilter', () => {
  const events = ['metadata', 'values', 'updates', 'messages/partial', 'messages', 'error'];
  const kept = (modes: string[] | undefined) =>
    events.filter((event) => streamModeFilter(modes)({ id: '0', event, data: null }));

  it.each([
    [undefined, events],
    [['updates'], ['metadata', 'updates', 'error']],
    [['messages-tuple'], ['metadata', 'messages', 'error']],
    [
      ['values', 'messages'],
      ['metadata', 'values', 'messages/partial', 'error'],
    ],
  ])('%j keeps %j', (modes, expected) => expect(kept(modes)).toEqual(expected));
});
