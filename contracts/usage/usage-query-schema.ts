import { z } from 'zod';
import { parseIsoDateTime } from './iso-datetime';
import { GROUP_BY_VALUES } from './usage-schema';

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

/**
 * Query parameters of both usage endpoints. `workspace_ids` is a list sent as repeated keys
 * (`?workspace_ids=a&workspace_ids=b`); a comma-joined value is one malformed UUID.
 * Output: times as epoch ms, de-duplicated workspace ids (lower case), `group_by` defaulted.
 */
export const usageQuerySchema = z
  .object({
    start_time: queryDateTime,
    end_time: queryDateTime,
    workspace_ids: z
      .array(z.uuid({ message: 'Input should be a valid UUID' }))
      .min(1, { message: 'List should have at least 1 item after validation, not 0' })
      .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]),
    group_by: z.enum(GROUP_BY_VALUES).default('workspace'),
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
