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
const longlived = (workspaceId: string): Refusal => ({
  workspaceId,
  limitType: 'monthly_longlived_traces',
  limitValue: 1,
  scope: 'workspace',
  targetId: workspaceId,
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
      [{ workspaceId: A, limitType: 'monthly_traces', project: 'p', refused: 2 }],
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
        { workspaceId: A, limitType: 'monthly_traces', project: 'q', refused: 2 },
        { workspaceId: A, limitType: 'monthly_traces', project: 'p', refused: 1 },
        { workspaceId: A, limitType: 'monthly_longlived_traces', project: 'q', refused: 1 },
        { workspaceId: B, limitType: 'monthly_traces', project: 'q', refused: 1 },
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
