import { Hono } from 'hono';
import { z } from 'zod';
import { TRACE_TIERS, type ValidationIssue } from '@contracts/usage/usage-schema';
import { jsonError } from '@server/http/json-error';
import type { UsageStore } from '../store/usage-store';
import { authorizeWriter } from './authorize-writer';
import { validationProblems } from '@server/http/validation-issues';

/** LangSmith's project create body, as far as billing reads it. */
const sessionSchema = z.object({
  name: z.string().trim().min(1).max(200),
  /** The project's default retention tier; short-lived when omitted. */
  trace_tier: z.enum(TRACE_TIERS).default('shortlived'),
});

/**
 * `POST /sessions` (relative to `/api/v1`): creates a tracing project in the writer's workspace
 * (as trace ingestion does on first sight of a `session_name`), or updates it, with its default
 * retention tier, as LangSmith's project settings do. Authorised as ingestion (`runs:create`).
 * 200 `{id, name, trace_tier}`; 422 naming the field.
 */
export function createSessionRoutes(backend: UsageStore): Hono {
  const app = new Hono();
  app.post('/sessions', async (c) => {
    const auth = await authorizeWriter(c, backend);
    if ('response' in auth) return auth.response;
    const parsed = sessionSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      const issues: ValidationIssue[] = validationProblems(['body'], parsed.error, (issue) => ({
        msg: issue.message,
        type: issue.code === 'invalid_value' ? 'enum' : 'value_error',
      }));
      return jsonError(c, 422, issues);
    }
    const { name, trace_tier } = parsed.data;
    const id = await backend.catalog.setProjectTier(auth.target.workspaceId, name, trace_tier);
    return c.json({ id, name, trace_tier });
  });
  return app;
}
