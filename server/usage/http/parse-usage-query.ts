import type { Context } from 'hono';
import type { z } from 'zod';
import { usageQuerySchema, type UsageQuery } from '@contracts/usage/usage-query-schema';
import type { ValidationIssue } from '@contracts/usage/usage-schema';
import { issueLoc } from '@server/http/validation-issues';

type ParseResult = { ok: true; query: UsageQuery } | { ok: false; issues: ValidationIssue[] };

/**
 * Validates the usage query string with the shared contract and reports problems the way
 * FastAPI does (`loc` starting with "query", pydantic's error `type`s), so clients written
 * against LangSmith read our 422s unchanged. `workspace_ids` is read as repeated keys only.
 */
export function parseUsageQuery(c: Context): ParseResult {
  const raw: Record<string, unknown> = {
    start_time: c.req.query('start_time'),
    end_time: c.req.query('end_time'),
    workspace_ids: c.req.queries('workspace_ids'),
    group_by: c.req.query('group_by'),
    kind: c.req.query('kind'),
    trace_tier: c.req.query('trace_tier'),
    include_context: c.req.query('include_context'),
  };
  const result = usageQuerySchema.safeParse(raw, { reportInput: true });
  if (result.success) return { ok: true, query: result.data };
  return { ok: false, issues: result.error.issues.map((issue) => toFastApiIssue(issue, raw)) };
}

/** `input` is what the client sent (FastAPI echoes the raw value), never a parsed form of it. */
function toFastApiIssue(issue: z.core.$ZodIssue, raw: Record<string, unknown>): ValidationIssue {
  const loc = issueLoc(['query'], issue);
  // Cross-field checks see parsed values; the client must see the string it sent.
  const sent = issue.path.length === 1 ? raw[String(issue.path[0])] : undefined;
  const parsedInput = 'input' in issue ? issue.input : undefined;
  const input = issue.code === 'custom' && sent !== undefined ? sent : parsedInput;
  if (issue.code === 'invalid_type' && input === undefined) {
    return { loc, msg: 'Field required', type: 'missing', input: null };
  }
  if (issue.code === 'custom') {
    const type = typeof issue.params?.type === 'string' ? issue.params.type : 'value_error';
    return { loc, msg: issue.message, type, input };
  }
  if (issue.code === 'invalid_format' && issue.format === 'uuid') {
    return { loc, msg: 'Input should be a valid UUID', type: 'uuid_parsing', input };
  }
  if (issue.code === 'invalid_value') {
    // The parameter's own choices (group_by, kind or trace_tier), as pydantic lists them.
    const choices = issue.values.map((value) => `'${String(value)}'`);
    const msg = `Input should be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
    return { loc, msg, type: 'enum', input };
  }
  return { loc, msg: issue.message, type: 'value_error', input };
}
