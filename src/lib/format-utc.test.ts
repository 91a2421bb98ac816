import { UTCDate } from '@date-fns/utc';
import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatUtc } from './format-utc';

const PATTERNS = [
  'yyyy-MM-dd',
  'MMM d',
  'MMM d, yyyy',
  'MMMM yyyy',
  'MMMM',
  'd MMM yyyy',
  'MMM d HH:mm',
  'MMM d, yyyy HH:mm:ss',
];
const INSTANTS = [
  Date.UTC(2026, 0, 5),
  Date.UTC(2026, 10, 23, 19, 7, 3),
  Date.UTC(2024, 1, 29, 23, 59, 59),
  Date.UTC(2026, 8, 1, 0, 0, 9),
];

describe('formatUtc', () => {
  // date-fns is the reference: the console used it before, and its tokens are the contract.
  it.each(PATTERNS.flatMap((pattern) => INSTANTS.map((ms) => [pattern, ms] as const)))(
    '%s at %i reads as date-fns formats it in UTC',
    (pattern, ms) => {
      expect(formatUtc(ms, pattern)).toBe(format(new UTCDate(ms), pattern));
    },
  );

  it('never shifts to the local zone', () => {
    expect(formatUtc(Date.UTC(2026, 10, 30, 23, 30), 'MMM d HH:mm')).toBe('Nov 30 23:30');
  });
});
