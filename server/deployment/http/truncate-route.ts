import type Database from 'better-sqlite3';
import { Hono } from 'hono';
import { z } from 'zod';
import { jsonError } from '@server/http/json-error';
import { parseJsonBody } from '../wire/request';

const truncateBody = z.looseObject({
  runs: z.boolean().optional(),
  threads: z.boolean().optional(),
  assistants: z.boolean().optional(),
  store: z.boolean().optional(),
  checkpoint: z.boolean().optional(),
});

/** The tables each flag of `POST /internal/truncate` empties. */
const TABLES = {
  runs: ['DELETE FROM runs'],
  threads: ['DELETE FROM runs', 'DELETE FROM crons', 'DELETE FROM threads'],
  // System assistants (one per served graph) stay, as on the official dev server.
  assistants: [
    `DELETE FROM assistant_versions WHERE assistant_id IN (SELECT assistant_id FROM assistants
       WHERE json_extract(metadata, '$.created_by') IS NOT 'system')`,
    `DELETE FROM assistants WHERE json_extract(metadata, '$.created_by') IS NOT 'system'`,
  ],
  store: ['DELETE FROM store_items'],
  checkpoint: ['DELETE FROM checkpoints', 'DELETE FROM writes'],
} as const;

/**
 * `POST /internal/truncate` as the official dev server has it for its test suite: empties the
 * tables named by the body's flags. Served only when `DEPLOYMENT_TEST_ROUTES` is set; the caller
 * makes sure no run is executing (`beforeStop` stops them first).
 */
export function createTruncateRoute(db: Database.Database, beforeStop: () => Promise<void>) {
  return new Hono().post('/truncate', async (c) => {
    const body = await parseJsonBody(c, truncateBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    if (body.data.runs || body.data.threads) await beforeStop();
    const statements = Object.entries(TABLES)
      .filter(([flag]) => body.data[flag as keyof typeof TABLES] === true)
      .flatMap(([, sql]) => sql);
    db.transaction(() => statements.forEach((sql) => db.prepare(sql).run()))();
    return c.body(null, 204);
  });
}
