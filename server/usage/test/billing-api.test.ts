import { describe, expect, it } from 'vitest';
import { billingUsageSchema, invoiceSchema } from '@contracts/usage/billing-schema';
import { planSchema } from '@contracts/usage/plan-schema';
import { DEFAULT_PLAN, invoiceTotal } from '@contracts/usage/pricing';
import { DEMO_PLAN } from '../seed/demo-billing';
import { parseCsv } from './csv-parse';
import { ADMIN, TEST_DIMENSIONS, useTestServer } from './test-server';

const server = useTestServer();
const LIMITED = { 'x-api-key': 'lsv2_demo_limited' };
const billing = (path: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}/api/v1/orgs/current/billing/${path}`, init);

describe('the billing API', () => {
  it("answers the demo's plan until an admin sets another; a reader may not", async () => {
    const before = await billing('plan', { headers: LIMITED });
    expect(before.status).toBe(200);
    expect(planSchema.parse(await before.json())).toEqual(DEMO_PLAN);

    const plan = { ...DEFAULT_PLAN, name: 'Team', seats: 4 };
    const put = (headers: Record<string, string>, body: unknown) =>
      billing('plan', {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put(LIMITED, plan)).status).toBe(403);
    const invalid = await put(ADMIN, { ...plan, seat_price: -1 });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ detail: [{ loc: ['body', 'seat_price'] }] });
    const saved = await put(ADMIN, plan);
    expect(saved.status).toBe(200);
    expect(planSchema.parse(await (await billing('plan', { headers: ADMIN })).json())).toEqual(
      plan,
    );
    const invoice = invoiceSchema.parse(
      await (await billing('invoices?month=2026-02', { headers: ADMIN })).json(),
    );
    expect(invoice.lines[0]).toMatchObject({ metric: 'seats', quantity: 4, amount: 156 });
    await put(ADMIN, DEMO_PLAN);
  });

  it("a past month's invoice is final; its total is the sum of its lines and of its CSV", async () => {
    const response = await billing('invoices?month=2026-02', { headers: ADMIN });
    expect(response.status).toBe(200);
    const invoice = invoiceSchema.parse(await response.json());
    expect(invoice.status).toBe('final');
    expect(invoice.projected).toBeNull();
    expect(invoice.lines.find((line) => line.metric === 'base_traces')?.quantity).toBeGreaterThan(
      0,
    );
    expect(invoice.total).toBe(invoiceTotal(invoice.lines));

    const csv = await billing('invoices?month=2026-02&format=csv', { headers: ADMIN });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = parseCsv(await csv.text());
    const column = (name: string) => header?.indexOf(name) ?? -1;
    const amounts = rows
      .filter((row) => row[column('Section')] === 'invoice')
      .map((row) => Math.round(Number(row[column('Amount USD')]) * 100));
    const total = rows.find((row) => row[column('Section')] === 'total');
    expect(amounts.reduce((a, b) => a + b, 0) / 100).toBe(invoice.total);
    expect(Number(total?.[column('Amount USD')])).toBe(invoice.total);
  });

  it('answers the current month as a draft with its projection, and refuses future months', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const draft = invoiceSchema.parse(
      await (await billing(`invoices?month=${month}`, { headers: ADMIN })).json(),
    );
    expect(draft.status).toBe('draft');
    expect(draft.projected).not.toBeNull();
    for (const bad of ['2099-01', '2026-13', 'last']) {
      expect((await billing(`invoices?month=${bad}`, { headers: ADMIN })).status).toBe(422);
    }
  });

  it('answers the period usage per metric and workspace, and 422 without a span', async () => {
    const search = new URLSearchParams({
      starting_on: '2026-02-01T00:00:00Z',
      ending_before: '2026-03-01T00:00:00Z',
    });
    const response = await billing(`usage?${search}`, { headers: ADMIN });
    const usage: { metric: string; value: number; groups: Record<string, number> }[] =
      await response.json();
    expect(usage.map((entry) => entry.metric)).toEqual([
      'base_traces',
      'extended_traces',
      'extended_upgrades',
      'deployment_runs',
      'deployment_nodes',
      'deployment_uptime_seconds',
    ]);
    for (const entry of usage) {
      expect(Object.values(entry.groups).reduce((a, b) => a + b, 0)).toBe(entry.value);
    }
    expect((await billing('usage', { headers: ADMIN })).status).toBe(422);
  });

  it('splits the period by project, user or API key on request, each adding up to the total', async () => {
    const span = 'starting_on=2026-02-01T00:00:00Z&ending_before=2026-03-01T00:00:00Z';
    const read = async (groupBy?: string) => {
      const response = await billing(`usage?${span}${groupBy ? `&group_by=${groupBy}` : ''}`, {
        headers: ADMIN,
      });
      expect(response.status).toBe(200);
      return response.text();
    };
    const byDefault = await read();
    expect(await read('workspace')).toBe(byDefault);
    const totals = billingUsageSchema.parse(JSON.parse(byDefault)).map((entry) => entry.value);
    const catalog = TEST_DIMENSIONS;
    const known = {
      project: new Set(catalog.projects.map((project) => project.id)),
      user: new Set(catalog.users.map((user) => user.id)),
      api_key: new Set(catalog.apiKeys.map((key) => key.id)),
    };
    for (const groupBy of ['project', 'user', 'api_key'] as const) {
      const usage = billingUsageSchema.parse(JSON.parse(await read(groupBy)));
      expect(usage.map((entry) => entry.value)).toEqual(totals);
      const base = usage.find((entry) => entry.metric === 'base_traces');
      const keys = Object.keys(base?.groups ?? {});
      expect(keys.length).toBeGreaterThan(1);
      for (const key of keys) expect(key === 'none' || known[groupBy].has(key)).toBe(true);
      for (const entry of usage) {
        expect(Object.values(entry.groups).reduce((a, b) => a + b, 0)).toBe(entry.value);
      }
    }
    const bad = await billing(`usage?${span}&group_by=model`, { headers: ADMIN });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ detail: [{ loc: ['query', 'group_by'] }] });
  });
});
