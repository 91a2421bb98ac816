import { describe, expect, it } from 'vitest';
import { formatDuration, formatOffset } from './relative-time';

describe('formatOffset', () => {
  it.each([
    [0, '+0.00 s'],
    [12, '+0.01 s'],
    [1250, '+1.25 s'],
    [2004.6, '+2.00 s'],
    [-5, '+0.00 s'],
  ])('%d ms -> %s', (ms, expected) => {
    expect(formatOffset(ms)).toBe(expected);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [4.4, '4 ms'],
    [999, '999 ms'],
    [999.6, '1.0 s'],
    [1234, '1.2 s'],
    [59_940, '59.9 s'],
    [65_000, '1 min 5 s'],
    [-3, '0 ms'],
  ])('%d ms -> %s', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});
