import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_WORKSPACE_IDS, useTestServer } from './test-server';

const server = useTestServer();

/** Values near the valid ones mixed with anything JSON can hold. */
const field = fc.oneof(
  fc.constantFrom(
    'monthly_traces',
    'monthly_longlived_traces',
    'new_workspaces',
    'existing_without_limit',
  ),
  fc.constantFrom(0, 1, -1, 2.5, 1e20, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2),
  fc.constantFrom(...TEST_WORKSPACE_IDS, '00000000-0000-4000-8000-000000000000'),
  fc.array(fc.integer({ min: -5, max: 150 }), { maxLength: 12 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const body = fc.oneof(
  fc.record(
    {
      limit_type: field,
      limit_value: field,
      id: field,
      alert_thresholds: field,
      apply_to: field,
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.string(),
);
const tenant = fc.oneof(
  fc.constantFrom(...TEST_WORKSPACE_IDS, TEST_WORKSPACE_IDS[0]?.toUpperCase() ?? '', ''),
  fc.string({ maxLength: 60 }).filter((text) => /^[\x21-\x7e]*$/.test(text)),
);

describe('fuzz: nothing sent to the usage-limits API yields a 5xx', () => {
  it('random PUT bodies, tenants, keys and DELETE ids over real HTTP', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/usage-limits', '/usage-limits/org/default'),
        body,
        tenant,
        fc.constantFrom('lsv2_demo_admin', 'lsv2_demo_limited', 'lsv2_demo_noperm'),
        fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })),
        async (path, payload, tenantId, apiKey, id) => {
          const headers: Record<string, string> = {
            'x-api-key': apiKey,
            'content-type': 'application/json',
          };
          if (tenantId) headers['x-tenant-id'] = tenantId;
          const put = await fetch(`${server.baseUrl}/api/v1${path}`, {
            method: 'PUT',
            headers,
            body: typeof payload === 'string' ? payload : JSON.stringify(payload),
          });
          expect(put.status).toBeLessThan(500);
          expect(await put.json()).toBeTypeOf('object');
          const removed = await fetch(
            `${server.baseUrl}/api/v1/usage-limits/${encodeURIComponent(id)}`,
            {
              method: 'DELETE',
              headers,
            },
          );
          expect(removed.status).toBeLessThan(500);
          await removed.body?.cancel();
        },
      ),
      { numRuns: 150 },
    );
  });
});
