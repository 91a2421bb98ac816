import { vi } from 'vitest';
import { DEFAULT_PLAN } from '@contracts/usage/pricing';
import type { LimitStatus, OrgDefaultLimit, ScopedLimit } from '@contracts/usage/usage-limits';
import type { GroupBy, UsageRecord } from '@contracts/usage/usage-schema';
import { EMBEDDED_CONSOLE_CONFIG, workspaceFixture } from '@/testing/console-fixtures';

export const ACME = 'a0000000-0000-4000-8000-000000000001';
export const GLOBEX = 'a0000000-0000-4000-8000-000000000002';
export const ACME_CHATBOT = 'b0000000-0000-4000-8000-000000000011';
/** The id of Acme's user `index` (0 to 29), `user<index>@acme.test`. */
export const acmeUserId = (index: number) =>
  `c0000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/**
 * Records for one request: a day of traces per workspace, project or user, at the request's
 * start.
 */
function recordsFor(url: URL): UsageRecord[] {
  const groupBy = (url.searchParams.get('group_by') ?? 'workspace') as GroupBy;
  const ids = url.searchParams.getAll('workspace_ids');
  const time = url.searchParams.get('start_time') ?? '';
  const byWorkspace = [
    {
      id: ACME,
      name: 'Acme',
      traces: 70,
      projects: [
        { id: ACME_CHATBOT, name: 'chatbot' },
        { id: 'b0000000-0000-4000-8000-000000000012', name: 'default' },
      ],
    },
    {
      id: GLOBEX,
      name: 'Globex',
      traces: 30,
      projects: [{ id: 'b0000000-0000-4000-8000-000000000021', name: 'default' }],
    },
  ].filter((ws) => ids.includes(ws.id));
  if (groupBy === 'user') {
    // 30 users of Acme with 10 traces each, so the chart's "Other" holds 20 of them (2/3).
    if (!ids.includes(ACME)) return [];
    return Array.from({ length: 30 }, (_, index) => ({
      time_bucket: time,
      traces: 10,
      dimensions: { user_id: acmeUserId(index), user_email: `user${index}@acme.test` },
    }));
  }
  if (groupBy === 'workspace') {
    return byWorkspace.map((ws) => ({
      time_bucket: time,
      traces: ws.traces,
      dimensions: { workspace_id: ws.id, workspace_name: ws.name },
    }));
  }
  return byWorkspace.flatMap((ws) =>
    ws.projects.map((project) => ({
      time_bucket: time,
      traces: ws.traces / ws.projects.length,
      dimensions: {
        project_id: project.id,
        project_name: project.name,
        workspace_id: ws.id,
        workspace_name: ws.name,
      },
    })),
  );
}

/**
 * The console server as the SPA sees it (config, two workspaces, usage by workspace, project or user),
 * as a stubbed `fetch`. Returns the usage requests' URLs, in order.
 */
export function stubUsageServer(
  options: {
    limits?: LimitStatus[];
    /** Project, user and spend limits, listed by `GET /usage-limits/org`. */
    scopedLimits?: ScopedLimit[];
    defaults?: OrgDefaultLimit[];
    onPut?: (request: Request) => Promise<Response>;
    /** `DELETE /usage-limits/{id}` and `PUT /usage-limits/org/default`. */
    onWrite?: (request: Request) => Promise<Response>;
  } = {},
): URL[] {
  const usageRequests: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://console.test');
      if (url.pathname === '/_console/usage/usage-limits/org/status') {
        return Response.json(options.limits ?? []);
      }
      if (url.pathname === '/_console/usage/usage-limits/org' && !init?.method) {
        return Response.json(options.scopedLimits ?? []);
      }
      if (url.pathname === '/_console/usage/usage-limits/org/deliveries') return Response.json([]);
      if (url.pathname === '/_console/usage/usage-limits/org/default' && !init?.method) {
        return Response.json(options.defaults ?? []);
      }
      if (init?.method === 'DELETE' || url.pathname.endsWith('/usage-limits/org/default')) {
        if (options.onWrite) return options.onWrite(new Request(url, init));
        throw new Error(`unexpected ${init?.method ?? 'GET'} ${url.pathname}`);
      }
      if (url.pathname === '/_console/usage/usage-limits' && init?.method === 'PUT') {
        const request = new Request(url, init);
        if (options.onPut) return options.onPut(request);
        throw new Error('unexpected PUT /usage-limits');
      }
      if (url.pathname === '/_console/usage/orgs/current/billing/plan' && !init?.method) {
        return Response.json(DEFAULT_PLAN);
      }
      if (url.pathname === '/_console/config') {
        return Response.json(EMBEDDED_CONSOLE_CONFIG);
      }
      if (url.pathname === '/_console/usage/workspaces') {
        return Response.json([workspaceFixture(ACME, 'Acme'), workspaceFixture(GLOBEX, 'Globex')]);
      }
      if (url.pathname === '/_console/usage/orgs/current/billing/granular-usage') {
        usageRequests.push(url);
        return Response.json({ stride: { days: 1, hours: 0 }, usage: recordsFor(url) });
      }
      throw new Error(`unexpected request: ${url.pathname}`);
    }),
  );
  return usageRequests;
}
