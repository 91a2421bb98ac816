import { afterEach, describe, expect, it } from 'vitest';
import { usageResponseSchema } from '@contracts/usage/usage-schema';
import { ADMIN, startTestServer, TEST_DIMENSIONS, usageUrl, type TestServer } from './test-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const RANGE = { start: '2025-12-01T00:00:00Z', end: '2026-01-10T00:00:00Z' };

describe('self-hosted availability', () => {
  it.each([
    ['no flags', {}],
    [
      'only DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING',
      { DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING: 'true' },
    ],
    ['only GRANULAR_USAGE_TABLE_ENABLED', { GRANULAR_USAGE_TABLE_ENABLED: 'true' }],
  ])('%s: 404 naming both variables; workspaces still listed', async (_label, flags) => {
    server = await startTestServer({ USAGE_DEPLOYMENT_MODE: 'self-hosted', ...flags });
    for (const exported of [false, true]) {
      const response = await fetch(usageUrl(server.baseUrl, { ...RANGE, export: exported }), {
        headers: ADMIN,
      });
      expect(response.status).toBe(404);
      const { detail } = (await response.json()) as { detail: string };
      expect(detail).toContain('DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING');
      expect(detail).toContain('GRANULAR_USAGE_TABLE_ENABLED');
    }
    const workspaces = await fetch(`${server.baseUrl}/api/v1/workspaces`, { headers: ADMIN });
    expect(workspaces.status).toBe(200);
  });

  it('both flags true: serves data, with no 2026-01-05 floor', async () => {
    server = await startTestServer({
      USAGE_DEPLOYMENT_MODE: 'self-hosted',
      DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING: 'true',
      GRANULAR_USAGE_TABLE_ENABLED: 'true',
    });
    const [project] = TEST_DIMENSIONS.projects;
    await server.fixtures.ingestTrace({
      run_id: '7d1e2f30-4a5b-4c6d-8e7f-000000000001',
      workspace_id: TEST_DIMENSIONS.workspaces[project?.wsIdx ?? 0]?.id ?? '',
      project_id: project?.id ?? '',
      start_time: new Date('2025-12-24T12:00:00Z'),
    });
    const response = await fetch(
      usageUrl(server.baseUrl, { start: '2025-12-24T00:00:00Z', end: '2025-12-25T00:00:00Z' }),
      { headers: ADMIN },
    );
    expect(response.status).toBe(200);
    const body = usageResponseSchema.parse(await response.json());
    expect(body.usage.map((r) => r.traces)).toEqual([1]);
  });
});
