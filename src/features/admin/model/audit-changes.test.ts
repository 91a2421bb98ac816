import { describe, expect, it } from 'vitest';
import { auditChanges, shownValue, SHOWN_VALUE_CHARS } from './audit-changes';

describe('the fields an audit entry changed', () => {
  it.each([
    [
      'a value changed',
      { limit_value: 90_000_000, limit_type: 'monthly_traces' },
      { limit_value: 80_000_000, limit_type: 'monthly_traces' },
      [{ field: 'limit_value', before: '90000000', after: '80000000' }],
    ],
    [
      'a state created',
      null,
      { description: 'CI', role: 'writer' },
      [
        { field: 'description', before: null, after: 'CI' },
        { field: 'role', before: null, after: 'writer' },
      ],
    ],
    [
      'a state removed',
      { limit_value: 5 },
      null,
      [{ field: 'limit_value', before: '5', after: null }],
    ],
    [
      'nested objects by dotted path, arrays as JSON',
      { alerts: { email: 'a@x.io', thresholds: [50, 80] } },
      { alerts: { email: 'b@x.io', thresholds: [50, 80, 100] } },
      [
        { field: 'alerts.email', before: 'a@x.io', after: 'b@x.io' },
        { field: 'alerts.thresholds', before: '[50,80]', after: '[50,80,100]' },
      ],
    ],
    [
      'a field set to null, and one only the old state had',
      { spend: 12.5, note: 'x' },
      { spend: null },
      [
        { field: 'spend', before: '12.5', after: 'null' },
        { field: 'note', before: 'x', after: null },
      ],
    ],
    [
      'a state that is not an object',
      'old',
      'new',
      [{ field: 'value', before: 'old', after: 'new' }],
    ],
    ['nothing changed', { a: 1 }, { a: 1 }, []],
    ['nothing recorded', null, null, []],
  ])('%s', (_label, before, after, expected) => {
    expect(auditChanges(before, after)).toEqual(expected);
  });

  it('shows a long value cut, and a short one whole', () => {
    expect(shownValue('short')).toBe('short');
    const long = 'x'.repeat(200);
    expect(shownValue(long)).toHaveLength(SHOWN_VALUE_CHARS);
    expect(shownValue(long).endsWith('…')).toBe(true);
  });
});
