import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { jsonError } from '@server/http/json-error';
import { parseJsonPart, MalformedRequestError } from '../ingest/parse-run-batch';
import { parseFeedback, storeFeedback } from '../feedback/store-feedback';
import type { StoredFeedback } from '../store/feedback-store';
import type { UsageStore } from '../store/usage-store';
import { authenticate } from './authenticate';
import { authorizeWriter } from './authorize-writer';

const uuid = z.uuid();
const FEEDBACK_BODY_BYTES = 1_048_576;

/** The feedback as LangSmith answers it (`FeedbackSchema`): the stored body. */
const wire = (feedback: StoredFeedback) => feedback.body;

/**
 * LangSmith's feedback API as the langsmith SDK calls it, relative to `/api/v1` (and the root):
 * `POST /feedback` (createFeedback when it does not batch), `GET /feedback/{id}`, `GET /feedback`
 * (`run`, `key`, `limit`, `offset`) and `DELETE /feedback/{id}`. Writing needs `runs:create` and
 * lands in the key's workspace (`X-Tenant-Id` as for runs); reading sees the key's workspaces.
 */
export function createFeedbackRoutes(backend: UsageStore): Hono {
  const app = new Hono();
  const limit = bodyLimit({
    maxSize: FEEDBACK_BODY_BYTES,
    onError: (c) => jsonError(c, 413, `Request body larger than ${FEEDBACK_BODY_BYTES} bytes.`),
  });

  app.post('/feedback', limit, async (c) => {
    const auth = await authorizeWriter(c, backend);
    if ('response' in auth) return auth.response;
    let payload: unknown;
    try {
      payload = parseJsonPart(await c.req.text(), ['body']);
    } catch (error) {
      if (error instanceof MalformedRequestError) return jsonError(c, 422, [error.problem]);
      throw error;
    }
    const at = new Date();
    const { items, problems } = parseFeedback([{ payload, loc: ['body'] }], at);
    const [item] = items;
    if (!item) return jsonError(c, 422, problems);
    await storeFeedback(backend, auth.target, [item], at);
    const stored = await backend.feedback.get([auth.target.workspaceId], item.id);
    return c.json(stored ? wire(stored) : item.body);
  });

  app.get('/feedback/:id', async (c) => {
    const scope = await readScope(c, backend);
    if ('response' in scope) return scope.response;
    const id = c.req.param('id').toLowerCase();
    if (!uuid.safeParse(id).success) return invalidId(c);
    const found = await backend.feedback.get(scope.workspaceIds, id);
    return found ? c.json(wire(found)) : jsonError(c, 404, `Feedback ${id} not found.`);
  });

  app.get('/feedback', async (c) => {
    const scope = await readScope(c, backend);
    if ('response' in scope) return scope.response;
    const runIds = c.req.queries('run') ?? [];
    if (runIds.some((id) => !uuid.safeParse(id).success)) {
      return jsonError(c, 422, [
        { loc: ['query', 'run'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' },
      ]);
    }
    const found = await backend.feedback.list(scope.workspaceIds, {
      runIds,
      keys: c.req.queries('key') ?? [],
      limit: clampInt(c.req.query('limit'), 100, 1, 100),
      offset: clampInt(c.req.query('offset'), 0, 0, Number.MAX_SAFE_INTEGER),
    });
    return c.json(found.map(wire));
  });

  app.delete('/feedback/:id', async (c) => {
    const auth = await authorizeWriter(c, backend);
    if ('response' in auth) return auth.response;
    const id = c.req.param('id').toLowerCase();
    if (!uuid.safeParse(id).success) return invalidId(c);
    // The upgrade it caused stays: it was billed when it happened.
    const removed = await backend.feedback.remove([auth.target.workspaceId], id);
    return removed ? c.json({}) : jsonError(c, 404, `Feedback ${id} not found.`);
  });

  return app;
}

/** The workspaces a read sees: the one `X-Tenant-Id` names (if the key reads it), else all. */
async function readScope(
  c: Context,
  backend: UsageStore,
): Promise<{ workspaceIds: string[] } | { response: Response }> {
  const auth = await authenticate(c, backend);
  if ('response' in auth) return auth;
  const readable = auth.principal.workspaces.map((workspace) => workspace.id);
  const tenant = c.req.header('x-tenant-id')?.trim().toLowerCase();
  if (!tenant) return { workspaceIds: readable };
  if (!readable.includes(tenant)) {
    return { response: jsonError(c, 403, `This API key cannot read workspace ${tenant}.`) };
  }
  return { workspaceIds: [tenant] };
}

const invalidId = (c: Context) =>
  jsonError(c, 422, [
    { loc: ['path', 'feedback_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' },
  ]);

function clampInt(text: string | undefined, fallback: number, min: number, max: number): number {
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}
