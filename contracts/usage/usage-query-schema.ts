import { z } from 'zod';
import { parseIsoDateTime } from './iso-datetime';
import { TRACE_GROUP_BY_VALUES, TRACE_TIERS, USAGE_KINDS } from './usage-schema';

/** Every `group_by` of any kind: `model` is LLM usage's own, `trace_tier` traces' own. */
const QUERY_GROUP_BY_VALUES = [...TRACE_GROUP_BY_VALUES, 'model'] as const;

/**
 * The usage endpoints' query validation (server side): the full zod API, for its transforms and
 * FastAPI-shaped issues. The SPA never imports this file, so it never loads the full zod.
 */

/**
 * A query-string datetime (ISO 8601; no offset means UTC), carried as epoch milliseconds.
 * The custom issue names pydantic's error type so the server can answer like FastAPI.
 */
const queryDateTime = z.string().transform((text, ctx) => {
  const ms = parseIsoDateTime(text);
  if (ms === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'Input should be a valid datetime (ISO 8601, e.g. 2026-01-05T00:00:00Z)',
      params: { type: 'datetime_parsing' },
      input: text,
    });
    return z.NEVER;
  }
  return ms;
});

/** The strings pydantic reads as a boolean (any case), so a LangSmith client's `True` works too. */
const TRUE_STRINGS = ['1', 'on', 't', 'true', 'y', 'yes'];
const FALSE_STRINGS = ['0', 'off', 'f', 'false', 'n', 'no'];

/** A query-string boolean, absent: false. */
const queryBoolean = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (text === undefined) return false;
    const lower = text.toLowerCase();
    if (TRUE_STRINGS.includes(lower)) return true;
    if (FALSE_STRINGS.includes(lower)) return false;
    ctx.addIssue({
      code: 'custom',
      message: 'Input should be a valid boolean, unable to interpret input',
      params: { type: 'bool_parsing' },
      input: text,
    });
    return z.NEVER;
  });

/**
 * Query parameters of both usage endpoints. `workspace_ids` is a list sent as repeated keys
 * (`?workspace_ids=a&workspace_ids=b`); a comma-joined value is one malformed UUID.
 * Output: times as epoch ms, de-duplicated workspace ids (lower case), `group_by`, `kind` and
 * `include_context` defaulted. `kind=langsmith_deployments` and `kind=llm_usage` refuse
 * `group_by=trace_tier` and `trace_tier`; `group_by=model` is `kind=llm_usage`'s only.
 */
export const usageQuerySchema = z
  .object({
    start_time: queryDateTime,
    end_time: queryDateTime,
    workspace_ids: z
      .array(z.uuid({ message: 'Input should be a valid UUID' }))
      .min(1, { message: 'List should have at least 1 item after validation, not 0' })
      .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]),
    group_by: z.enum(QUERY_GROUP_BY_VALUES).default('workspace'),
    kind: z.enum(USAGE_KINDS).default('traces'),
    trace_tier: z.enum(TRACE_TIERS).optional(),
    /** Our extension: the export's context columns (`CSV_CONTEXT_COLUMNS`). */
    include_context: queryBoolean,
  })
  .check((ctx) => {
    if (ctx.value.kind === 'llm_usage' || ctx.value.group_by !== 'model') return;
    ctx.issues.push({
      code: 'custom',
      path: ['group_by'],
      message: 'Value error, group_by=model applies to kind=llm_usage only',
      params: { type: 'value_error' },
      input: ctx.value.group_by,
    });
  })
  .check((ctx) => {
    // Deployments and LLM usage have no retention tier: neither a tier filter nor a tier
    // grouping applies.
    if (ctx.value.kind === 'traces') return;
    for (const key of ['group_by', 'trace_tier'] as const) {
      if (key === 'group_by' && ctx.value.group_by !== 'trace_tier') continue;
      if (key === 'trace_tier' && ctx.value.trace_tier === undefined) continue;
      ctx.issues.push({
        code: 'custom',
        path: [key],
        message: `Value error, ${key}=${ctx.value[key]} applies to kind=traces only`,
        params: { type: 'value_error' },
        input: ctx.value[key],
      });
    }
  })
  .check((ctx) => {
    if (ctx.value.end_time <= ctx.value.start_time) {
      ctx.issues.push({
        code: 'custom',
        path: ['end_time'],
        message: 'Value error, end_time must be after start_time',
        params: { type: 'value_error' },
        input: ctx.value.end_time,
      });
    }
  });
/** What the server works with after validation. */
export type UsageQuery = z.infer<typeof usageQuerySchema>;
