import { describe, expect, it } from 'vitest';
import { countRefusals } from './refusal-counts';
import type { Refusal } from './select-over-limit';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const traces = (workspaceId: string): Refusal => ({
  workspaceId,
  limitType: 'monthly_traces',
  limitValue: 1,
  scope: 'workspace',
  targetId: workspaceId,
});
const P = '00000000-0000-4000-8000-0000000000bb';
const project = (workspaceId: string): Refusal => ({
  workspaceId,
  limitType: 'monthly_traces',
  limitValue: 1,
  scope: 'project',
  targetId: P,
});
const spend = (workspaceId: string): Refusal => ({ ...traces(workspaceId), spendLimit: 0.5 });
const longlived = (workspaceId: string): Refusal => ({
  workspaceId,
  limitType: 'monthly_longlived_traces',
  limitValue: 1,
  scope: 'workspace',
  targetId: workspaceId,
});

/** The stored fields of a refusal by a workspace's own `monthly_traces` limit. */
const own = (workspaceId: string) => ({
  workspaceId,
  limitType: 'monthly_traces',
  scope: 'workspace',
  targetId: workspaceId,
  spend: false,
});

describe('countRefusals', () => {
  it.each([
    ['nothing refused', [], []],
    [
      'two runs of one project under one limit',
      [
        ['r1', 'p', traces(A)],
        ['r2', 'p', traces(A)],
      ],
      [{ ...own(A), project: 'p', refused: 2 }],
    ],
    [
      'one group per project, limit type and workspace, in first-refusal order',
      [
        ['r1', 'q', traces(A)],
        ['r2', 'p', traces(A)],
        ['r3', 'q', longlived(A)],
        ['r4', 'q', traces(B)],
        ['r5', 'q', traces(A)],
      ],
      [
        { ...own(A), project: 'q', refused: 2 },
        { ...own(A), project: 'p', refused: 1 },
        { ...own(A), limitType: 'monthly_longlived_traces', project: 'q', refused: 1 },
        { ...own(B), project: 'q', refused: 1 },
      ],
    ],
    [
      'one group per refusing limit: the workspace, a project, the spend limit',
      [
        ['r1', 'p', project(A)],
        ['r2', 'p', traces(A)],
        ['r3', 'p', spend(A)],
        ['r4', 'p', project(A)],
        ['r5', 'p', spend(A)],
      ],
      [
        { ...own(A), scope: 'project', targetId: P, project: 'p', refused: 2 },
        { ...own(A), project: 'p', refused: 1 },
        { ...own(A), spend: true, project: 'p', refused: 2 },
      ],
    ],
  ] as const)('%s', (_label, refusedRuns, expected) => {
    const refused = new Map(refusedRuns.map(([runId, , refusal]) => [runId, refusal]));
    // Billed runs sit between the refused ones and are not counted.
    const runs = [
      { runId: 'billed-1', projectName: 'p' },
      ...refusedRuns.map(([runId, projectName]) => ({ runId, projectName })),
      { runId: 'billed-2', projectName: 'q' },
    ];
    expect(countRefusals(runs, refused)).toEqual(expected);
  });
});
