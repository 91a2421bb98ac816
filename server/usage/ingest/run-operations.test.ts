import { describe, expect, it } from 'vitest';
import { decideRuns, isRootRun, runPayloadSchema } from './run-operations';

const ROOT = '0193a7a0-0000-7000-8000-000000000001';
const CHILD = '0193a7a0-0000-7000-8000-000000000002';
const payload = (fields: Record<string, unknown>) =>
  runPayloadSchema.parse({ id: ROOT, ...fields });

describe('isRootRun', () => {
  it.each([
    ['a create without trace fields', 'post', {}, true],
    ['a create that is its own trace', 'post', { trace_id: ROOT }, true],
    ['a create in another trace', 'post', { trace_id: CHILD }, false],
    ['a create with a parent', 'post', { parent_run_id: CHILD }, false],
    [
      'a create with one dotted-order segment',
      'post',
      { dotted_order: `20261123T000000000000Z${ROOT}` },
      true,
    ],
    ['a create with two segments', 'post', { dotted_order: `a.b` }, false],
    ['an update without trace fields', 'patch', {}, false],
    ['an update of a root', 'patch', { trace_id: ROOT }, true],
  ] as const)('%s -> %s', (_label, kind, fields, expected) => {
    expect(isRootRun(kind, payload(fields))).toBe(expected);
  });
});

describe('decideRuns', () => {
  it('merges a run’s create and update, takes its project from either, and bills roots only', () => {
    const decided = decideRuns(
      [
        { kind: 'post', runId: ROOT, payload: { id: ROOT, trace_id: ROOT }, loc: ['a'] },
        { kind: 'patch', runId: ROOT, payload: { id: ROOT, session_name: 'p' }, loc: ['b'] },
        { kind: 'post', runId: CHILD, payload: { id: CHILD, parent_run_id: ROOT }, loc: ['c'] },
      ],
      new Map(),
    );
    expect(decided).toEqual({
      accepted: [
        { runId: ROOT, root: true, projectName: 'p' },
        { runId: CHILD, root: false, projectName: 'default' },
      ],
      problems: [],
    });
  });

  it('rejects the whole run when one of its parts is invalid', () => {
    const decided = decideRuns(
      [
        { kind: 'post', runId: ROOT, payload: { id: ROOT }, loc: ['post'] },
        { kind: 'patch', runId: ROOT, payload: { id: ROOT, trace_id: 7 }, loc: ['patch'] },
      ],
      new Map(),
    );
    expect(decided.accepted).toEqual([]);
    expect(decided.problems.map((problem) => problem.loc)).toEqual([['patch', 'trace_id']]);
  });
});
