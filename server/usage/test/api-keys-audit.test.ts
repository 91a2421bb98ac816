import { describe, expect, it } from 'vitest';
import type { ApiKeyInfo, AuditLogPage, CreatedApiKey } from '@contracts/usage/admin-schema';
import { parseCsv } from './csv-parse';
import { LIMIT_BACKENDS, useLimitServer } from './limit-backends';
import { putLimit, putLimitResponse } from './limit-helpers';
import { ADMIN, TEST_DIMENSIONS, TEST_WORKSPACE_IDS } from './test-server';

const workspace = TEST_WORKSPACE_IDS[0] ?? '';
const workspaceName = TEST_DIMENSIONS.workspaces[0]?.name ?? '';

/**
 * Keys made with a role and the audit log, through the real server on every backend: what an
 * admin's client sees of the keys it makes and revokes, and of the changes made with them.
 */
describe.each(LIMIT_BACKENDS)('API keys and the audit log ($name)', (backend) => {
  const server = useLimitServer(backend, 'keys_audit');

  const call = (path: string, init: RequestInit & { key?: string; actor?: string } = {}) =>
    fetch(`${server.baseUrl}/api/v1${path}`, {
      ...init,
      headers: {
        'x-api-key': init.key ?? ADMIN['x-api-key'],
        'content-type': 'application/json',
        ...(init.actor ? { 'x-console-actor': init.actor } : {}),
      },
    });
  const createKey = async (body: unknown, key?: string) => {
    const response = await call('/api-key', { method: 'POST', body: JSON.stringify(body), key });
    expect(response.status).toBe(200);
    return (await response.json()) as CreatedApiKey;
  };
  const auditPage = async (query = '') => {
    const response = await call(`/orgs/current/audit-log${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as AuditLogPage;
  };

  it('shows a new key once: the list has its prefix and last four, never the key', async () => {
    const made = await createKey({ description: 'dashboards', role: 'viewer' });
    expect(made.key).toMatch(/^lsv2_[0-9a-f]{48}$/);
    expect(made).toMatchObject({ description: 'dashboards', role: 'viewer', read_only: true });
    expect(made.short_key).toBe(`lsv2_...${made.key.slice(-4)}`);
    const listed = await call('/api-key');
    const text = await listed.text();
    expect(text).not.toContain(made.key);
    const keys = JSON.parse(text) as ApiKeyInfo[];
    expect(keys.find((key) => key.id === made.id)).toEqual({
      id: made.id,
      short_key: made.short_key,
      description: 'dashboards',
      role: 'viewer',
      read_only: true,
      created_at: made.created_at,
      revoked_at: null,
    });
  });

  it('gives each role its rights: a viewer reads, a writer ingests, an admin sets limits', async () => {
    const viewer = await createKey({ description: 'viewer', role: 'viewer' });
    const writer = await createKey({ description: 'writer', role: 'writer' });
    const admin = await createKey({ description: 'admin', role: 'admin' });
    const limit = { limit_type: 'monthly_traces', limit_value: 1_000_000 };
    expect((await putLimitResponse(server.baseUrl, workspace, limit, viewer.key)).status).toBe(403);
    expect((await putLimitResponse(server.baseUrl, workspace, limit, writer.key)).status).toBe(403);
    expect((await putLimitResponse(server.baseUrl, workspace, limit, admin.key)).status).toBe(200);
    const run = (key: string) =>
      fetch(`${server.baseUrl}/api/v1/runs`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'x-tenant-id': workspace, 'content-type': 'application/json' },
        body: JSON.stringify({ id: crypto.randomUUID(), name: 'r', run_type: 'chain' }),
      });
    expect((await run(viewer.key)).status).toBe(403);
    expect((await run(writer.key)).status).toBeLessThan(300);
    // Only an admin manages keys.
    expect((await call('/api-key', { key: writer.key })).status).toBe(403);
    expect((await call('/api-key', { key: admin.key })).status).toBe(200);
    expect((await call('/orgs/current/audit-log', { key: viewer.key })).status).toBe(403);
  });

  it('refuses a revoked key at once, and says so in the list', async () => {
    const made = await createKey({ description: 'to revoke', role: 'viewer' });
    expect((await call('/workspaces', { key: made.key })).status).not.toBe(401);
    const revoked = await call(`/api-key/${made.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as ApiKeyInfo).revoked_at).not.toBeNull();
    expect((await call('/workspaces', { key: made.key })).status).toBe(401);
    const keys = (await (await call('/api-key')).json()) as ApiKeyInfo[];
    expect(keys.find((key) => key.id === made.id)?.revoked_at).toEqual(expect.any(String));
    expect((await call(`/api-key/${crypto.randomUUID()}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('records a limit change with its actor, before and after, newest first', async () => {
    await putLimit(server.baseUrl, workspace, 500);
    const response = await fetch(`${server.baseUrl}/api/v1/usage-limits`, {
      method: 'PUT',
      headers: {
        ...ADMIN,
        'x-tenant-id': workspace,
        'x-console-actor': 'ada@example.com',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        limit_type: 'monthly_traces',
        limit_value: 900,
        alert_thresholds: [50, 90],
      }),
    });
    expect(response.status).toBe(200);
    const [latest, previous] = (await auditPage('?limit=2')).entries;
    expect(latest).toMatchObject({
      actor: 'ada@example.com',
      action: 'usage_limit.set',
      target: `${workspaceName} (monthly_traces)`,
      before: { limit_value: 500 },
      after: { limit_value: 900, alert_thresholds: [50, 90] },
    });
    expect(latest?.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(previous).toMatchObject({ actor: 'api-key:demo admin', after: { limit_value: 500 } });
  });

  it('names the console user from X-Console-Actor sent with an admin key', async () => {
    const made = await createKey({ description: 'short-lived', role: 'admin' });
    await call(`/api-key/${made.id}`, { method: 'DELETE', actor: 'eve@example.com' });
    const [entry] = (await auditPage('?limit=1')).entries;
    expect(entry).toMatchObject({
      action: 'api_key.revoke',
      target: made.id,
      actor: 'eve@example.com',
      before: { role: 'admin', revoked: false },
      after: { role: 'admin', revoked: true },
    });
    expect(JSON.stringify(entry)).not.toContain(made.key);
  });

  it('records plan and model price changes with the console user as actor', async () => {
    const plan = (await (await call('/orgs/current/billing/plan')).json()) as {
      seat_price: number;
    };
    const raised = { ...plan, seat_price: plan.seat_price + 7 };
    const putPlan = await call('/orgs/current/billing/plan', {
      method: 'PUT',
      body: JSON.stringify(raised),
      actor: 'grace@example.com',
    });
    expect(putPlan.status).toBe(200);
    const [planEntry] = (await auditPage('?limit=1')).entries;
    expect(planEntry).toMatchObject({
      actor: 'grace@example.com',
      action: 'billing_plan.set',
      target: 'organization',
      before: { seat_price: plan.seat_price },
      after: { seat_price: plan.seat_price + 7 },
    });

    const price = (init: RequestInit & { actor?: string }, path = '') =>
      fetch(`${server.baseUrl}/api/v1/model-price-map${path}`, {
        ...init,
        headers: {
          ...ADMIN,
          'x-tenant-id': workspace,
          'content-type': 'application/json',
          ...(init.actor ? { 'x-console-actor': init.actor } : {}),
        },
      });
    const body = {
      name: 'audited-model',
      match_pattern: '^audited$',
      prompt_cost: 0.000001,
      completion_cost: 0.000004,
    };
    const created = (await (
      await price({ method: 'POST', body: JSON.stringify(body), actor: 'grace@example.com' })
    ).json()) as { id: string };
    const replaced = await price(
      { method: 'PUT', body: JSON.stringify({ ...body, prompt_cost: 0.000002 }) },
      `/${created.id}`,
    );
    expect(replaced.status).toBe(200);
    expect((await price({ method: 'DELETE' }, `/${created.id}`)).status).toBe(204);
    const [removed, set, made] = (await auditPage('?limit=3')).entries;
    expect(made).toMatchObject({
      actor: 'grace@example.com',
      action: 'model_price.create',
      target: 'audited-model',
      before: null,
      after: { id: created.id, prompt_cost: 0.000001 },
    });
    expect(set).toMatchObject({
      actor: 'api-key:demo admin',
      action: 'model_price.set',
      before: { prompt_cost: 0.000001 },
      after: { prompt_cost: 0.000002 },
    });
    expect(removed).toMatchObject({
      action: 'model_price.remove',
      before: { prompt_cost: 0.000002 },
      after: null,
    });
    // A refused change leaves no entry.
    const total = (await auditPage('?limit=1')).total;
    expect((await price({ method: 'DELETE' }, `/${created.id}`)).status).toBe(404);
    expect((await auditPage('?limit=1')).total).toBe(total);
  });

  it('pages the log and exports it as RFC 4180 CSV', async () => {
    await createKey({ description: 'comma, "quoted"\nline', role: 'viewer' });
    const first = await auditPage('?limit=1');
    const second = await auditPage('?limit=1&offset=1');
    expect(first.total).toBeGreaterThan(1);
    expect(first.entries[0]?.id).not.toBe(second.entries[0]?.id);
    expect((await call('/orgs/current/audit-log?limit=0')).status).toBe(422);
    const exported = await call('/orgs/current/audit-log/export');
    expect(exported.headers.get('content-type')).toContain('text/csv');
    const rows = parseCsv(await exported.text());
    expect(rows[0]).toEqual(['at', 'actor', 'action', 'target', 'before', 'after']);
    expect(rows).toHaveLength(first.total + 1);
    const created = rows[1] ?? [];
    expect(created[2]).toBe('api_key.create');
    expect(JSON.parse(created[5] ?? '')).toMatchObject({ description: 'comma, "quoted"\nline' });
  });
});
