import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '@contracts/usage/usage-schema';
import { ADMIN, useTestServer, TEST_WORKSPACE_IDS, USAGE_PATH } from './test-server';

const server = useTestServer();

const [A = '', B = ''] = TEST_WORKSPACE_IDS;
const START = 'start_time=2026-02-01T00:00:00Z';
const END = 'end_time=2026-02-02T00:00:00Z';
const WS = `workspace_ids=${A}`;

describe.each(['', '/export'])('422 validation errors of %s', (suffix) => {
  it.each([
    ['start_time missing', `${END}&${WS}`, [['query', 'start_time'], 'missing']],
    ['end_time missing', `${START}&${WS}`, [['query', 'end_time'], 'missing']],
    ['workspace_ids missing', `${START}&${END}`, [['query', 'workspace_ids'], 'missing']],
    [
      'start_time malformed',
      `start_time=yesterday&${END}&${WS}`,
      [['query', 'start_time'], 'datetime_parsing'],
    ],
    [
      'end_time malformed',
      `${START}&end_time=2026-02-30T00:00:00Z&${WS}`,
      [['query', 'end_time'], 'datetime_parsing'],
    ],
    [
      'unencoded + offset',
      `${START}&end_time=2026-02-02T00:00:00+01:00&${WS}`,
      [['query', 'end_time'], 'datetime_parsing'],
    ],
    [
      'end_time equal to start_time',
      `${START}&end_time=2026-02-01T00:00:00Z&${WS}`,
      [['query', 'end_time'], 'value_error'],
    ],
    [
      'end_time before start_time',
      `${START}&end_time=2026-01-01T00:00:00Z&${WS}`,
      [['query', 'end_time'], 'value_error'],
    ],
    ['unknown group_by', `${START}&${END}&${WS}&group_by=team`, [['query', 'group_by'], 'enum']],
    ['empty group_by', `${START}&${END}&${WS}&group_by=`, [['query', 'group_by'], 'enum']],
    [
      'bad UUID',
      `${START}&${END}&workspace_ids=nope`,
      [['query', 'workspace_ids', 0], 'uuid_parsing'],
    ],
    [
      'second UUID bad',
      `${START}&${END}&${WS}&workspace_ids=1234`,
      [['query', 'workspace_ids', 1], 'uuid_parsing'],
    ],
    [
      'empty UUID',
      `${START}&${END}&workspace_ids=`,
      [['query', 'workspace_ids', 0], 'uuid_parsing'],
    ],
    [
      'comma-joined UUIDs',
      `${START}&${END}&workspace_ids=${A},${B}`,
      [['query', 'workspace_ids', 0], 'uuid_parsing'],
    ],
    [
      'bracketed key',
      `${START}&${END}&workspace_ids[]=${A}`,
      [['query', 'workspace_ids'], 'missing'],
    ],
    ['unknown kind', `${START}&${END}&${WS}&kind=deployments`, [['query', 'kind'], 'enum']],
    [
      'unknown trace_tier',
      `${START}&${END}&${WS}&trace_tier=extended`,
      [['query', 'trace_tier'], 'enum'],
    ],
    [
      'deployments grouped by trace_tier',
      `${START}&${END}&${WS}&kind=langsmith_deployments&group_by=trace_tier`,
      [['query', 'group_by'], 'value_error'],
    ],
    [
      'deployments filtered by trace_tier',
      `${START}&${END}&${WS}&kind=langsmith_deployments&trace_tier=longlived`,
      [['query', 'trace_tier'], 'value_error'],
    ],
  ])('%s', async (_label, query, [loc, type]) => {
    const response = await fetch(`${server.baseUrl}${USAGE_PATH}${suffix}?${query}`, {
      headers: ADMIN,
    });
    expect(response.status).toBe(422);
    const body = errorBodySchema.parse(await response.json());
    expect(Array.isArray(body.detail)).toBe(true);
    const issues = Array.isArray(body.detail) ? body.detail : [];
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ loc, type });
    expect(issues[0]?.msg.length).toBeGreaterThan(0);
  });

  it.each([
    ['start_time malformed', `start_time=yesterday&${END}&${WS}`, 'yesterday'],
    [
      'end_time before start_time',
      `${START}&end_time=2026-01-01T00:00:00Z&${WS}`,
      '2026-01-01T00:00:00Z',
    ],
    ['unknown group_by', `${START}&${END}&${WS}&group_by=team`, 'team'],
    ['unknown trace_tier', `${START}&${END}&${WS}&trace_tier=forever`, 'forever'],
    ['bad UUID', `${START}&${END}&workspace_ids=nope`, 'nope'],
    ['start_time missing', `${END}&${WS}`, null],
  ])('carries the refused input (%s), as FastAPI does', async (_label, query, input) => {
    const response = await fetch(`${server.baseUrl}${USAGE_PATH}${suffix}?${query}`, {
      headers: ADMIN,
    });
    const body = errorBodySchema.parse(await response.json());
    const issues = Array.isArray(body.detail) ? body.detail : [];
    expect(issues[0]).toHaveProperty('input', input);
  });

  it('reports every problem at once', async () => {
    const response = await fetch(`${server.baseUrl}${USAGE_PATH}${suffix}?group_by=x`, {
      headers: ADMIN,
    });
    expect(response.status).toBe(422);
    const body = errorBodySchema.parse(await response.json());
    const locs = Array.isArray(body.detail) ? body.detail.map((issue) => issue.loc.join('.')) : [];
    expect(locs.sort()).toEqual([
      'query.end_time',
      'query.group_by',
      'query.start_time',
      'query.workspace_ids',
    ]);
  });
});
