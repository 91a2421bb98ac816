import { describe, expect, it } from 'vitest';
import { digitsOf, writeCount } from './render-usage';

const COUNTS = [
  0,
  1,
  9,
  10,
  99,
  100,
  12_345,
  99_999_999,
  100_000_000,
  100_000_001,
  1_234_567_890_123,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53 - 1,
  // Every power of ten and its neighbours up to a safe integer's 16 digits.
  ...Array.from({ length: 16 }, (_, e) => [10 ** e - 1, 10 ** e, 10 ** e + 1]).flat(),
];

describe('counts written as ASCII digits', () => {
  it.each(COUNTS.map((count) => [count]))('writes %d as String does', (count) => {
    const out = Buffer.alloc(32, 0x78);
    const end = writeCount(out, 3, count);
    expect(out.toString('latin1', 3, end)).toBe(String(count));
    expect(digitsOf(count)).toBe(String(count).length);
    // Nothing written outside the count's bytes.
    expect(out.toString('latin1', 0, 3)).toBe('xxx');
    expect(out[end]).toBe(0x78);
  });
});
