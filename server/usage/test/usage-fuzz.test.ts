import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestServer, TEST_WORKSPACE_IDS } from './test-server';

const server = useTestServer();

const PATHS = [
  '/api/v1/orgs/current/billing/granular-usage',
  '/api/v1/orgs/current/billing/granular-usage/export',
  '/api/v1/workspaces',
];
const KEYS = ['start_time', 'end_time', 'workspace_ids', 'group_by', 'workspace_ids[]', 'x'];

/** Values near the valid ones (so requests get past validation) mixed with arbitrary text. */
const value = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(...TEST_WORKSPACE_IDS, 'workspace', 'project', 'user', 'api_key', 'API_KEY'),
  fc
    .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  fc.constantFrom(
    '2026-02-01',
    '2026-02-01T00:00:00',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999999999Z',
    '2026-02-01T00:00:00-23:59',
    '1e400',
    '%00',
    '%ZZ',
  ),
);
const pair = fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string()), value);

describe('fuzz: no query string yields a 5xx', () => {
  it('structured random queries over real HTTP', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.array(pair, { maxLength: 8 }),
        fc.constantFrom(
          'lsv2_demo_admin',
          'lsv2_demo_limited',
          'lsv2_demo_noperm',
          '',
          'x'.repeat(600),
        ),
        async (path, pairs, key) => {
          const search = new URLSearchParams();
          for (const [k, v] of pairs) search.append(k, v);
          const response = await fetch(`${server.baseUrl}${path}?${search}`, {
            headers: key ? { 'x-api-key': key } : {},
          });
          await response.arrayBuffer();
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('raw, possibly malformed query strings over real HTTP', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.string({ maxLength: 200 }),
        async (path, raw) => {
          const query = encodeURI(raw).replaceAll('%25', '%');
          const response = await fetch(`${server.baseUrl}${path}?${query}`, {
            headers: { 'x-api-key': 'lsv2_demo_admin' },
          });
          await response.arrayBuffer();
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
  });
});
