import { describe, expect, it } from 'vitest';
import { modelPriceListSchema, modelPriceSchema } from '@contracts/usage/model-price-map';
import { DEFAULT_MODEL_PRICES } from '../model/default-model-prices';
import { ADMIN, TEST_WORKSPACE_IDS, useTestServer } from './test-server';

const server = useTestServer();
const WORKSPACE = TEST_WORKSPACE_IDS[1] ?? '';

const call = (method: string, path: string, body?: unknown, key = ADMIN['x-api-key']) =>
  fetch(`${server.baseUrl}/api/v1/model-price-map${path}`, {
    method,
    headers: { 'x-api-key': key, 'x-tenant-id': WORKSPACE, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const entry = {
  name: 'house-model',
  match_pattern: '^house-model$',
  prompt_cost: 0.000001,
  completion_cost: 0.000002,
  prompt_cost_details: { cache_read: 0.0000001 },
};

describe('the model price map API', () => {
  it('lists the defaults, read-only, with the workspace’s own entries', async () => {
    const response = await call('GET', '');
    expect(response.status).toBe(200);
    const list = modelPriceListSchema.parse(await response.json());
    expect(list.filter((price) => price.tenant_id === null)).toHaveLength(
      DEFAULT_MODEL_PRICES.length,
    );
    expect(response.headers.get('x-pagination-total')).toBe(String(list.length));
    const defaultId = DEFAULT_MODEL_PRICES[0]?.id ?? '';
    expect((await call('DELETE', `/${defaultId}`)).status).toBe(404);
  });

  it('creates, replaces and deletes an entry of the workspace', async () => {
    const created = modelPriceSchema.parse(await (await call('POST', '', entry)).json());
    expect(created).toMatchObject({
      tenant_id: WORKSPACE,
      name: 'house-model',
      match_path: ['model_name'],
      prompt_cost_details: { cache_read: 0.0000001 },
      completion_cost_details: {},
      provider: null,
      start_time: null,
    });
    const { prompt_cost_details: _details, ...withoutDetails } = entry;
    const replaced = await call('PUT', `/${created.id}`, {
      ...withoutDetails,
      completion_cost: 0.000003,
      start_time: '2026-12-01T00:00:00Z',
    });
    expect(replaced.status).toBe(200);
    expect(modelPriceSchema.parse(await replaced.json())).toMatchObject({
      id: created.id,
      completion_cost: 0.000003,
      start_time: '2026-12-01T00:00:00.000Z',
      // Every field is replaced: the omitted details are back to none.
      prompt_cost_details: {},
    });
    expect((await call('DELETE', `/${created.id}`)).status).toBe(204);
    expect((await call('DELETE', `/${created.id}`)).status).toBe(404);
  });

  it.each([
    ['an invalid pattern', { ...entry, match_pattern: '(' }, 'match_pattern'],
    ['a negative price', { ...entry, prompt_cost: -1 }, 'prompt_cost'],
    ['no name', { ...entry, name: undefined }, 'name'],
  ])('answers 422 to %s', async (_label, body, field) => {
    const response = await call('POST', '', body);
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: string[] }[] };
    expect(detail.map((problem) => problem.loc.join('.'))).toContain(`body.${field}`);
  });

  it('refuses changes from keys without usage-limits:manage, and bad ids', async () => {
    expect((await call('POST', '', entry, 'lsv2_demo_limited')).status).toBe(403);
    expect((await call('PUT', '/not-a-uuid', entry)).status).toBe(422);
  });
});
