import { z } from 'zod';
import { LIMIT_SCOPES, LIMIT_TYPES, MAX_LIMIT_VALUE, SPEND_LIMIT_TYPE } from './usage-limits';

/**
 * Request bodies of the usage-limits API (server side, full zod for FastAPI-shaped issues).
 * Unknown fields are ignored, as pydantic does by default.
 */

const limitValue = z
  .number({ message: 'Input should be a valid integer' })
  .int({ message: 'Input should be a valid integer' })
  .min(0, { message: 'Input should be greater than or equal to 0' })
  .max(MAX_LIMIT_VALUE, { message: `Input should be less than or equal to ${MAX_LIMIT_VALUE}` });

const thresholds = z
  .array(
    z
      .number()
      .int({ message: 'Input should be a valid integer' })
      .min(1, { message: 'Input should be greater than or equal to 1' })
      .max(100, { message: 'Input should be less than or equal to 100' }),
  )
  .min(1, { message: 'List should have at least 1 item after validation, not 0' })
  .max(10, { message: 'List should have at most 10 items after validation' })
  .transform((values) => [...new Set(values)].sort((a, b) => a - b));

/** `PUT /api/v1/usage-limits`: LangSmith's `UsageLimitCreate`, plus optional alert thresholds. */
export const putUsageLimitBodySchema = z.object({
  limit_type: z.enum(LIMIT_TYPES, {
    message: "Input should be 'monthly_traces' or 'monthly_longlived_traces'",
  }),
  limit_value: limitValue,
  id: z.uuid({ message: 'Input should be a valid UUID' }).optional(),
  alert_thresholds: thresholds.optional(),
});
export type PutUsageLimitBody = z.output<typeof putUsageLimitBodySchema>;

/** The largest spend limit accepted, in dollars. */
export const MAX_SPEND_DOLLARS = 1_000_000_000;

/**
 * `PUT /api/v1/usage-limits` for a limit beside a workspace's own trace limits: `monthly_traces`
 * of a project or user (`target_id`), or a workspace's `monthly_spend` in dollars with the share
 * of them for extended-retention traces (0 to 1, 0 when absent).
 */
export const putScopedLimitBodySchema = z.discriminatedUnion('limit_type', [
  z.object({
    limit_type: z.literal('monthly_traces'),
    scope: z.enum(['project', 'user'], { message: "Input should be 'project' or 'user'" }),
    target_id: z.uuid({ message: 'Input should be a valid UUID' }),
    limit_value: limitValue,
    id: z.uuid({ message: 'Input should be a valid UUID' }).optional(),
    alert_thresholds: thresholds.optional(),
  }),
  z.object({
    limit_type: z.literal(SPEND_LIMIT_TYPE),
    scope: z.literal('workspace', { message: "Input should be 'workspace'" }).default('workspace'),
    limit_value: z
      .number({ message: 'Input should be a valid number' })
      .min(0, { message: 'Input should be greater than or equal to 0' })
      .max(MAX_SPEND_DOLLARS, {
        message: `Input should be less than or equal to ${MAX_SPEND_DOLLARS}`,
      }),
    extended_share: z
      .number({ message: 'Input should be a valid number' })
      .min(0, { message: 'Input should be greater than or equal to 0' })
      .max(1, { message: 'Input should be less than or equal to 1' })
      .default(0),
    id: z.uuid({ message: 'Input should be a valid UUID' }).optional(),
    alert_thresholds: thresholds.optional(),
  }),
]);
export type PutScopedLimitBody = z.output<typeof putScopedLimitBodySchema>;

/** Which of the two bodies a `PUT /usage-limits` is: the scope and type it names. */
export const limitKindSchema = z.object({
  scope: z.enum(LIMIT_SCOPES).default('workspace'),
  limit_type: z.unknown().optional(),
});

/**
 * `PUT /api/v1/usage-limits/org/default`: the limit every new workspace gets. `apply_to:
 * "existing_without_limit"` also gives it now to each readable workspace without its own.
 */
export const putOrgDefaultBodySchema = z.object({
  limit_type: z.enum(LIMIT_TYPES, {
    message: "Input should be 'monthly_traces' or 'monthly_longlived_traces'",
  }),
  limit_value: limitValue,
  apply_to: z
    .enum(['new_workspaces', 'existing_without_limit'], {
      message: "Input should be 'new_workspaces' or 'existing_without_limit'",
    })
    .default('new_workspaces'),
});
export type PutOrgDefaultBody = z.output<typeof putOrgDefaultBodySchema>;
