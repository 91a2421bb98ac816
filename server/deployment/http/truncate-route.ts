import { Hono } from 'hono';
import { z } from 'zod';
import { jsonError } from '@server/http/json-error';
import type { TruncateFlags } from '../store/records';
import { parseJsonBody } from '../wire/request';

const truncateBody = z.looseObject({
  runs: z.boolean().optional(),
  threads: z.boolean().optional(),
  assistants: z.boolean().optional(),
  store: z.boolean().optional(),
  checkpoint: z.boolean().optional(),
});

/**
 * `POST /internal/truncate` as the official dev server has it for its test suite: empties the
 * tables named by the body's flags. Served only when `DEPLOYMENT_TEST_ROUTES` is set; the caller
 * makes sure no run is executing (`beforeStop` stops them first).
 */
export function createTruncateRoute(
  truncate: (flags: TruncateFlags) => Promise<void>,
  beforeStop: () => Promise<void>,
) {
  return new Hono().post('/truncate', async (c) => {
    const body = await parseJsonBody(c, truncateBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    if (body.data.runs || body.data.threads) await beforeStop();
    await truncate(body.data);
    return c.body(null, 204);
  });
}
