import { Hono } from 'hono';
import { planSchema } from '@contracts/usage/plan-schema';
import { invoiceCsv } from '@contracts/usage/invoice-csv';
import { parseIsoDateTime } from '@contracts/usage/iso-datetime';
import { DEFAULT_PLAN, type Plan } from '@contracts/usage/pricing';
import { jsonError } from '@server/http/json-error';
import { validationProblems } from '@server/http/validation-issues';
import { billingGroupBySchema, UNATTRIBUTED_GROUP } from '@contracts/usage/billing-schema';
import { billingUsage } from '../model/billing-usage';
import { monthOf, monthSpan } from '../model/invoice';
import { getInvoice } from '../queries/get-invoice';
import type { UsageStore } from '../store/usage-store';
import { authorizeLimits } from './limit-request';
import { recordChange } from './record-change';

export interface BillingRouteOptions {
  now?: () => Date;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/**
 * The organization's billing, relative to `/api/v1` (organization:read; the plan's PUT also
 * usage-limits:manage, the admin's permission), over the workspaces the key reads:
 * `GET /orgs/current/billing/usage?starting_on=&ending_before=[&group_by=]` the period's
 * metrics split by workspace (or project, user, API key),
 * `GET|PUT /orgs/current/billing/plan` the plan and prices, and
 * `GET /orgs/current/billing/invoices?month=YYYY-MM[&format=csv]` a month's invoice.
 */
export function createBillingRoutes(backend: UsageStore, options: BillingRouteOptions = {}): Hono {
  const app = new Hono();
  const now = options.now ?? (() => new Date());

  app.get('/orgs/current/billing/usage', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    const problems = [];
    const span: Date[] = [];
    for (const name of ['starting_on', 'ending_before'] as const) {
      const text = c.req.query(name);
      const ms = text === undefined ? undefined : parseIsoDateTime(text);
      if (ms === undefined) {
        problems.push({
          loc: ['query', name],
          msg: text === undefined ? 'Field required' : 'Input should be a valid datetime',
          type: text === undefined ? 'missing' : 'datetime_parsing',
        });
      } else span.push(new Date(ms));
    }
    const groupBy = billingGroupBySchema.safeParse(c.req.query('group_by') ?? 'workspace');
    if (!groupBy.success) {
      problems.push({
        loc: ['query', 'group_by'],
        msg: "Input should be 'workspace', 'project', 'user' or 'api_key'",
        type: 'enum',
      });
    }
    const [start, end] = span;
    if (!start || !end || !groupBy.success) return jsonError(c, 422, problems);
    if (end.getTime() <= start.getTime()) {
      return jsonError(c, 422, [
        {
          loc: ['query', 'ending_before'],
          msg: 'ending_before must be after starting_on',
          type: 'value_error',
        },
      ]);
    }
    const ids = new Set(auth.principal.workspaces.map((workspace) => workspace.id));
    if (groupBy.data === 'user' || groupBy.data === 'api_key') {
      const rows = await backend.ledger.periodCountsBy(start, end, groupBy.data);
      return c.json(billingUsage(rows, ids, (row) => row.attributedTo ?? UNATTRIBUTED_GROUP));
    }
    const rows = await backend.ledger.periodCounts(start, end);
    return c.json(
      billingUsage(rows, ids, (row) =>
        groupBy.data === 'project' ? row.projectId : row.workspaceId,
      ),
    );
  });

  app.get('/orgs/current/billing/plan', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    return c.json((await backend.ledger.plan()) ?? DEFAULT_PLAN);
  });

  app.put('/orgs/current/billing/plan', async (c) => {
    const auth = await authorizeLimits(c, backend, 'write');
    if ('response' in auth) return auth.response;
    let json: unknown;
    try {
      json = JSON.parse(await c.req.text());
    } catch {
      return jsonError(c, 422, [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }]);
    }
    const parsed = planSchema.safeParse(json);
    if (!parsed.success) return jsonError(c, 422, validationProblems(['body'], parsed.error));
    const at = now();
    const before: Plan = (await backend.ledger.putPlan(parsed.data, at)) ?? DEFAULT_PLAN;
    await recordChange(c, backend, auth.principal, {
      action: 'billing_plan.set',
      target: 'organization',
      before,
      after: parsed.data,
    });
    return c.json(parsed.data);
  });

  app.get('/orgs/current/billing/invoices', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    const at = now();
    const month = c.req.query('month') ?? monthOf(at);
    if (!MONTH.test(month) || monthSpan(month).start.getTime() > at.getTime()) {
      return jsonError(c, 422, [
        {
          loc: ['query', 'month'],
          msg: 'Input should be a month (YYYY-MM, UTC) that has begun',
          type: 'value_error',
        },
      ]);
    }
    const invoice = await getInvoice(backend, month, auth.principal.workspaces, at);
    if (c.req.query('format') === 'csv') {
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', `attachment; filename="invoice-${month}.csv"`);
      return c.body(invoiceCsv(invoice));
    }
    return c.json(invoice);
  });

  return app;
}
