import { describe, expect, it } from 'vitest';
import { selectOverLimit, type CandidateTrace, type LimitBudget } from './select-over-limit';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const runs = (workspaceId: string, count: number, tier: 'short' | 'long' = 'short') =>
  Array.from({ length: count }, (_, i): CandidateTrace => ({
    runId: `${workspaceId.slice(-1)}${i}`,
    workspaceId,
    tier,
  }));

describe('selectOverLimit', () => {
  it.each([
    ['room for all', 10, 5, 3, 0],
    ['exactly full after', 10, 7, 3, 0],
    ['two of five fit', 10, 8, 5, 3],
    ['already full', 10, 10, 4, 4],
    ['already over (limit lowered)', 10, 15, 2, 2],
    ['a limit of zero', 0, 0, 2, 2],
  ])('%s: limit %i, used %i, %i new -> %i refused', (_label, limit, used, count, refusedCount) => {
    const budgets = new Map([[A, [{ limitType: 'monthly_traces', limitValue: limit, used }]]]);
    const refused = selectOverLimit(runs(A, count), budgets as Map<string, LimitBudget[]>);
    expect(refused.size).toBe(refusedCount);
    // The first arrivals are billed, the last refused.
    expect([...refused.keys()]).toEqual(
      runs(A, count)
        .slice(count - refusedCount)
        .map((r) => r.runId),
    );
  });

  it('bills a workspace without limits in full, next to a limited one', () => {
    const budgets = new Map<string, LimitBudget[]>([
      [A, [{ limitType: 'monthly_traces', limitValue: 1, used: 0 }]],
    ]);
    const refused = selectOverLimit([...runs(A, 3), ...runs(B, 3)], budgets);
    expect([...refused.keys()]).toEqual(['a1', 'a2']);
    expect(refused.get('a1')).toEqual({
      workspaceId: A,
      limitType: 'monthly_traces',
      limitValue: 1,
      scope: 'workspace',
      targetId: A,
    });
  });

  it('counts only long-lived traces against the long-lived limit', () => {
    const budgets = new Map<string, LimitBudget[]>([
      [A, [{ limitType: 'monthly_longlived_traces', limitValue: 1, used: 0 }]],
    ]);
    expect(selectOverLimit(runs(A, 5, 'short'), budgets).size).toBe(0);
    const refused = selectOverLimit(runs(A, 3, 'long'), budgets);
    expect([...refused.keys()]).toEqual(['a1', 'a2']);
    expect(refused.get('a1')?.limitType).toBe('monthly_longlived_traces');
  });

  it('refuses a long-lived trace when either limit is full, and a refused run uses no room', () => {
    const budgets = new Map<string, LimitBudget[]>([
      [
        A,
        [
          { limitType: 'monthly_traces', limitValue: 3, used: 0 },
          { limitType: 'monthly_longlived_traces', limitValue: 1, used: 0 },
        ],
      ],
    ]);
    const candidates: CandidateTrace[] = [
      { runId: 'l1', workspaceId: A, tier: 'long' },
      { runId: 'l2', workspaceId: A, tier: 'long' },
      { runId: 's1', workspaceId: A, tier: 'short' },
      { runId: 's2', workspaceId: A, tier: 'short' },
      { runId: 's3', workspaceId: A, tier: 'short' },
    ];
    const refused = selectOverLimit(candidates, budgets);
    expect([...refused.entries()].map(([id, r]) => [id, r.limitType])).toEqual([
      ['l2', 'monthly_longlived_traces'],
      ['s3', 'monthly_traces'],
    ]);
  });

  it('holds a project limit to its project and a user limit to its user only', () => {
    const P = '00000000-0000-4000-8000-0000000000f1';
    const U = '00000000-0000-4000-8000-0000000000e1';
    const budgets = new Map<string, LimitBudget[]>([
      [
        A,
        [
          { limitType: 'monthly_traces', limitValue: 2, used: 1, scope: 'project', targetId: P },
          { limitType: 'monthly_traces', limitValue: 1, used: 0, scope: 'user', targetId: U },
        ],
      ],
    ]);
    const candidates: CandidateTrace[] = [
      { runId: 'p1', workspaceId: A, tier: 'short', projectId: P, userId: null },
      { runId: 'o1', workspaceId: A, tier: 'short', projectId: 'other', userId: null },
      { runId: 'p2', workspaceId: A, tier: 'short', projectId: P, userId: null },
      { runId: 'u1', workspaceId: A, tier: 'short', projectId: 'other', userId: U },
      { runId: 'u2', workspaceId: A, tier: 'short', projectId: 'other', userId: U },
      { runId: 'o2', workspaceId: A, tier: 'short', projectId: 'other', userId: null },
    ];
    const refused = selectOverLimit(candidates, budgets);
    expect([...refused.entries()].map(([id, r]) => [id, r.scope, r.targetId])).toEqual([
      ['p2', 'project', P],
      ['u2', 'user', U],
    ]);
  });

  it('counts a run once against a workspace limit and the same limit bought by a spend limit', () => {
    const budgets = new Map<string, LimitBudget[]>([
      [
        A,
        [
          { limitType: 'monthly_traces', limitValue: 4, used: 0 },
          { limitType: 'monthly_traces', limitValue: 3, used: 0, spendLimit: 0.0015 },
        ],
      ],
    ]);
    const refused = selectOverLimit(runs(A, 5), budgets);
    expect([...refused.keys()]).toEqual(['a3', 'a4']);
    expect(refused.get('a3')?.spendLimit).toBe(0.0015);
  });
});
