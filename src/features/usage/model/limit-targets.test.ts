import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '@contracts/usage/usage-schema';
import { limitTargetsOf, limitTargetWindow } from './limit-targets';

const record = (dimensions: UsageRecord['dimensions'], traces = 1): UsageRecord => ({
  time_bucket: '2026-01-01T00:00:00Z',
  dimensions,
  traces,
});

describe('limitTargetWindow', () => {
  it.each([
    ['mid-day', '2026-11-28T17:46:50Z', '2024-11-28T00:00:00.000Z', '2026-11-29T00:00:00.000Z'],
    ['midnight', '2026-11-28T00:00:00Z', '2024-11-28T00:00:00.000Z', '2026-11-29T00:00:00.000Z'],
  ])('at %s covers whole UTC days up to the end of today', (_label, now, start, end) => {
    const window = limitTargetWindow(Date.parse(now));
    expect([new Date(window.startMs).toISOString(), new Date(window.endMs).toISOString()]).toEqual([
      start,
      end,
    ]);
  });
});

describe('limitTargetsOf', () => {
  it('lists each project once, by name, whatever the buckets', () => {
    const records = [
      record({ project_id: 'p2', project_name: 'support-bot' }),
      record({ project_id: 'p1', project_name: 'Checkout' }),
      record({ project_id: 'p2', project_name: 'support-bot' }),
    ];
    expect(limitTargetsOf(records, 'project')).toEqual([
      { id: 'p1', label: 'Checkout' },
      { id: 'p2', label: 'support-bot' },
    ]);
  });

  it('names users by e-mail, else by id, and skips traces of no user', () => {
    const records = [
      record({ user_id: 'u2', user_email: 'ana@example.com' }),
      record({ user_id: 'u1', user_email: null }),
      record({ user_id: null }),
      record({}),
    ];
    expect(limitTargetsOf(records, 'user')).toEqual([
      { id: 'u2', label: 'ana@example.com' },
      { id: 'u1', label: 'u1' },
    ]);
  });
});
