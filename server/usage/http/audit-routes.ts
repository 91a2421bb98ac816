import { Hono } from 'hono';
import { z } from 'zod';
import { AUDIT_CSV_COLUMNS, type AuditLogPage } from '@contracts/usage/admin-schema';
import { formatCsvRow } from '@contracts/usage/csv';
import { jsonError } from '@server/http/json-error';
import type { AuditEntry, UsageStore } from '../store/usage-store';
import { authorizeAdmin } from './authorize-admin';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 500;
/** Entries read per backend call while exporting. */
const EXPORT_PAGE = 1000;

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(DEFAULT_PAGE),
  offset: z.coerce.number().int().min(0).default(0),
});

const jsonCell = (value: unknown) => (value === null ? '' : JSON.stringify(value));

const csvLine = (entry: AuditEntry) =>
  formatCsvRow([
    entry.at,
    entry.actor,
    entry.action,
    entry.target,
    jsonCell(entry.before),
    jsonCell(entry.after),
  ]);

/**
 * The audit log, relative to `/api/v1`, for organisation admins: a page newest first, and the
 * whole log as CSV (RFC 4180, cells neutralised as the usage export's).
 */
export function createAuditRoutes(backend: UsageStore): Hono {
  const app = new Hono();

  app.get('/orgs/current/audit-log', async (c) => {
    const auth = await authorizeAdmin(c, backend);
    if ('response' in auth) return auth.response;
    const query = pageQuery.safeParse(c.req.query());
    if (!query.success) {
      return jsonError(
        c,
        422,
        query.error.issues.map((issue) => ({
          loc: ['query', ...issue.path.map(String)],
          msg: issue.message,
          type: issue.code,
        })),
      );
    }
    const { limit, offset } = query.data;
    const { entries, total } = await backend.audit.page(offset, limit);
    const page: AuditLogPage = { entries, total, offset, limit };
    return c.json(page);
  });

  app.get('/orgs/current/audit-log/export', async (c) => {
    const auth = await authorizeAdmin(c, backend);
    if ('response' in auth) return auth.response;
    const lines = [formatCsvRow(AUDIT_CSV_COLUMNS)];
    // Pages are read until one comes back short: entries added meanwhile may shift one page.
    for (let offset = 0; ; offset += EXPORT_PAGE) {
      const { entries } = await backend.audit.page(offset, EXPORT_PAGE);
      lines.push(...entries.map(csvLine));
      if (entries.length < EXPORT_PAGE) break;
    }
    return c.body(lines.join(''), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="audit-log.csv"',
    });
  });

  return app;
}
