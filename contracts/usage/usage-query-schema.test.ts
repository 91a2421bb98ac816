import { describe, expect, it } from 'vitest';
import { usageQuerySchema } from './usage-query-schema';

const A = '11111111-1111-4111-8111-111111111111';
const valid = {
  start_time: '2026-01-05T00:00:00Z',
  end_time: '2026-01-06T00:00:00Z',
  workspace_ids: [A],
};

describe('usageQuerySchema', () => {
  it('defaults group_by and converts times to epoch ms', () => {
    expect(usageQuerySchema.parse({ ...valid, workspace_ids: [A, A.toUpperCase()] })).toEqual({
      start_time: Date.parse('2026-01-05T00:00:00Z'),
      end_time: Date.parse('2026-01-06T00:00:00Z'),
      workspace_ids: [A],
      group_by: 'workspace',
      kind: 'traces',
      include_context: false,
    });
  });

  it.each([
    ['true', true],
    ['True', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['off', false],
  ])('reads include_context=%s as %s', (text, expected) => {
    expect(usageQuerySchema.parse({ ...valid, include_context: text }).include_context).toBe(
      expected,
    );
  });

  it.each([
    ['missing start_time', { ...valid, start_time: undefined }, ['start_time']],
    ['bad end_time', { ...valid, end_time: 'soon' }, ['end_time']],
    ['end equal to start', { ...valid, end_time: valid.start_time }, ['end_time']],
    ['end before start', { ...valid, end_time: '2026-01-04T00:00:00Z' }, ['end_time']],
    ['no workspaces', { ...valid, workspace_ids: [] }, ['workspace_ids']],
    ['comma-joined ids', { ...valid, workspace_ids: [`${A},${A}`] }, ['workspace_ids', 0]],
    ['unknown group_by', { ...valid, group_by: 'team' }, ['group_by']],
    ['unknown kind', { ...valid, kind: 'deployments' }, ['kind']],
    ['unknown trace_tier', { ...valid, trace_tier: 'extended' }, ['trace_tier']],
    [
      'include_context not a boolean',
      { ...valid, include_context: 'workspace' },
      ['include_context'],
    ],
    [
      'deployments grouped by tier',
      { ...valid, kind: 'langsmith_deployments', group_by: 'trace_tier' },
      ['group_by'],
    ],
    [
      'deployments filtered by tier',
      { ...valid, kind: 'langsmith_deployments', trace_tier: 'longlived' },
      ['trace_tier'],
    ],
  ])('%s fails at %j', (_label, input, path) => {
    const result = usageQuerySchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([path]);
  });
});

describe('usageQuerySchema, kinds and tiers', () => {
  it.each([
    [{ trace_tier: 'longlived', group_by: 'trace_tier' }, 'traces', 'trace_tier', 'longlived'],
    [
      { kind: 'langsmith_deployments', group_by: 'project' },
      'langsmith_deployments',
      'project',
      undefined,
    ],
  ])('%j parses', (extra, kind, groupBy, tier) => {
    const parsed = usageQuerySchema.parse({ ...valid, ...extra });
    expect([parsed.kind, parsed.group_by, parsed.trace_tier]).toEqual([kind, groupBy, tier]);
  });
});
