import { describe, expect, it } from 'vitest';
import { checkLimit, checkThresholds, parseLimit, parseThresholds } from './limit-form-values';

describe('limit form values', () => {
  it.each([
    ['50000', true, 50000],
    ['50,000', true, 50000],
    [' 50 000 ', true, 50000],
    ['0', true, 0],
    ['', 'Enter the number of traces a month, like 50,000.', null],
    ['-5', 'Use a whole number of traces, without decimals or a minus sign.', null],
    ['2.5', 'Use a whole number of traces, without decimals or a minus sign.', null],
    ['ten', 'Use a whole number of traces, without decimals or a minus sign.', null],
    ['9007199254740992', 'That is more than the largest limit, 9,007,199,254,740,991.', null],
  ])('limit %j: %j', (text, verdict, value) => {
    expect(checkLimit(text)).toBe(verdict);
    if (value !== null) expect(parseLimit(text)).toBe(value);
  });

  it.each([
    ['50, 80, 100', true, [50, 80, 100]],
    ['90 25%,25', true, [25, 90]],
    ['100', true, [100]],
    ['', 'Enter at least one percentage, like 50, 80, 100.', null],
    ['0, 50', '0 is not a whole percentage from 1 to 100.', null],
    ['50, 120', '120 is not a whole percentage from 1 to 100.', null],
    ['12.5', '12.5 is not a whole percentage from 1 to 100.', null],
    ['1 2 3 4 5 6 7 8 9 10 11', 'Use at most 10 percentages.', null],
  ])('thresholds %j: %j', (text, verdict, values) => {
    expect(checkThresholds(text)).toBe(verdict);
    if (values !== null) expect(parseThresholds(text)).toEqual(values);
  });
});
