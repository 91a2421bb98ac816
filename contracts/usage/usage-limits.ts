import { z } from 'zod/mini';
import { LIMIT_SCOPES, LIMIT_TYPES, SPEND_LIMIT_TYPE } from './usage-values';

/**
 * LangSmith's usage-limits API (`/api/v1/usage-limits`), shared by the server and the SPA, plus
 * what this console adds: the org default, the month's status per workspace and the alert log.
 * `zod/mini`: the SPA parses every answer with these.
 */

export { LIMIT_SCOPES, LIMIT_TYPES, SPEND_LIMIT_TYPE };
export const limitTypeSchema = z.enum(LIMIT_TYPES);
export type LimitType = z.infer<typeof limitTypeSchema>;

/** The largest limit accepted: exact in a double and in a BIGINT. */
export const MAX_LIMIT_VALUE = Number.MAX_SAFE_INTEGER;

/** Alert thresholds (percent of the limit) when a limit is stored without its own. */
export const DEFAULT_ALERT_THRESHOLDS = [50, 80, 100] as const;

const isoDateTime = z.iso.datetime({ offset: true });

/** A stored limit, as LangSmith answers it (`UsageLimit`). */
export const usageLimitSchema = z.object({
  id: z.uuid(),
  tenant_id: z.uuid(),
  limit_type: limitTypeSchema,
  limit_value: z.int().check(z.nonnegative()),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
export type UsageLimit = z.infer<typeof usageLimitSchema>;
export const usageLimitListSchema = z.array(usageLimitSchema);

export const limitScopeSchema = z.enum(LIMIT_SCOPES);
export type LimitScope = z.infer<typeof limitScopeSchema>;

/**
 * Every type a limit can be of, as the status, the alerts and the delivery log name it: the
 * workspace ones (traces) and a spend limit's (dollars).
 */
export const alertedLimitTypeSchema = z.enum([...LIMIT_TYPES, SPEND_LIMIT_TYPE]);
export type AlertedLimitType = z.infer<typeof alertedLimitTypeSchema>;

/**
 * A limit beside LangSmith's workspace ones: `monthly_traces` of one project or user
 * (`target_id`), or `monthly_spend` of a workspace (`target_id` is the workspace). A spend limit's
 * `limit_value` is in dollars and `derived` holds the trace limits it is enforced as, bought at
 * the plan's prices with `extended_share` of the dollars on extended-retention traces.
 */
export const scopedLimitSchema = z.object({
  id: z.uuid(),
  tenant_id: z.uuid(),
  scope: limitScopeSchema,
  target_id: z.uuid(),
  limit_type: z.enum(['monthly_traces', SPEND_LIMIT_TYPE]),
  limit_value: z.number().check(z.nonnegative()),
  extended_share: z.nullable(z.number()),
  derived: z.nullable(z.object({ monthly_traces: z.int(), monthly_longlived_traces: z.int() })),
  alert_thresholds: z.array(z.int()),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
export type ScopedLimit = z.infer<typeof scopedLimitSchema>;

/** `GET /usage-limits`: the workspace's own limits, then its project, user and spend limits. */
export const anyLimitListSchema = z.array(z.union([scopedLimitSchema, usageLimitSchema]));

/** The org-wide default a workspace without its own limit gets (this console's addition). */
export const orgDefaultLimitSchema = z.object({
  limit_type: limitTypeSchema,
  limit_value: z.int().check(z.nonnegative()),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
export type OrgDefaultLimit = z.infer<typeof orgDefaultLimitSchema>;
export const orgDefaultLimitListSchema = z.array(orgDefaultLimitSchema);

/**
 * One limit this month: what the usage tab draws. A workspace's own limits (`scope:
 * "workspace"`, one entry per type, with or without a limit) come first, then each project, user
 * and spend limit of the workspace; a spend limit counts `used` and `limit_value` in dollars.
 */
export const limitStatusSchema = z.object({
  workspace_id: z.uuid(),
  /** Who the limit holds, and which workspace, project or user that is. */
  scope: limitScopeSchema,
  target_id: z.uuid(),
  limit_type: alertedLimitTypeSchema,
  /** Null when the workspace has no limit of this type (own or default); dollars for spend. */
  limit_value: z.nullable(z.number()),
  /** The limit itself (what `DELETE /usage-limits/{id}` takes), or null (none, or a default). */
  limit_id: z.nullable(z.uuid()),
  /** `own`, `org_default` or null (no limit). */
  source: z.nullable(z.enum(['own', 'org_default'])),
  /** Percent thresholds alerted (100 always is: it dates `reached_at`). */
  alert_thresholds: z.array(z.int()),
  /** Traces counted against this limit from the month's start to now (dollars for spend). */
  used: z.number(),
  month_start: isoDateTime,
  resets_at: isoDateTime,
  /** When the count reached the limit this month, or null. */
  reached_at: z.nullable(isoDateTime),
  /**
   * Root runs refused this month: by this limit type of the workspace (every refusal of the
   * type, project, user and spend limits' included), or by this project, user or spend limit;
   * null when not counted.
   */
  refused: z.nullable(z.int()),
  /** Thresholds (percent) crossed this month, with when. */
  alerts: z.array(z.object({ threshold: z.int(), crossed_at: isoDateTime })),
  /** Whether the caller may change this workspace's limits. */
  can_edit: z.boolean(),
});
export type LimitStatus = z.infer<typeof limitStatusSchema>;

/** A workspace's own standing for one trace limit type (what the limits table has a row for). */
export type WorkspaceLimitStatus = LimitStatus & {
  scope: 'workspace';
  limit_type: LimitType;
  refused: number;
};

export const isWorkspaceLimitStatus = (status: LimitStatus): status is WorkspaceLimitStatus =>
  status.scope === 'workspace' && status.limit_type !== SPEND_LIMIT_TYPE && status.refused !== null;
export const limitStatusListSchema = z.array(limitStatusSchema);

/** One attempt to deliver an alert to the webhook (the console shows the log). */
export const alertDeliverySchema = z.object({
  alert_id: z.string(),
  workspace_id: z.uuid(),
  limit_type: alertedLimitTypeSchema,
  /** Set for a project, user or spend limit's alert: who that limit holds. */
  scope: z.optional(limitScopeSchema),
  target_id: z.optional(z.uuid()),
  threshold: z.int(),
  attempt: z.int(),
  attempted_at: isoDateTime,
  /** HTTP status of the receiver's answer, or null when it could not be reached. */
  status: z.nullable(z.int()),
  ok: z.boolean(),
  error: z.nullable(z.string()),
});
export type AlertDelivery = z.infer<typeof alertDeliverySchema>;
export const alertDeliveryListSchema = z.array(alertDeliverySchema);

/**
 * The 429 body of an ingestion request whose root runs went over a limit: LangSmith's
 * `{detail}` plus what a client needs to act (which runs, when it resets). The other runs of the
 * request were handled as usual (`accepted`, `traces_billed`).
 */
export const limitExceededSchema = z.object({
  detail: z.string(),
  workspace_id: z.uuid(),
  limit_type: limitTypeSchema,
  limit_value: z.int(),
  /** Who the refusing limit holds, and which project, user or workspace that is. */
  scope: limitScopeSchema,
  target_id: z.uuid(),
  /** Set when the refusing trace limit is the one a spend limit (dollars) buys. */
  spend_limit: z.optional(z.number()),
  resets_at: isoDateTime,
  refused_run_ids: z.array(z.string()),
  accepted: z.int(),
  traces_billed: z.int(),
  /** Problems of other runs of the request (as a 422 would list them), usually none. */
  problems: z.array(
    z.object({ loc: z.array(z.union([z.string(), z.int()])), msg: z.string(), type: z.string() }),
  ),
});
export type LimitExceeded = z.infer<typeof limitExceededSchema>;

/** The JSON body POSTed to the alert webhook (signed, see `alert-signature.ts`). */
export const limitAlertPayloadSchema = z.object({
  type: z.literal('usage_limit.threshold_crossed'),
  alert_id: z.string(),
  workspace_id: z.uuid(),
  workspace_name: z.string(),
  /** Who the limit holds: the workspace, one of its projects or users (`target_id`). */
  scope: limitScopeSchema,
  target_id: z.uuid(),
  limit_type: alertedLimitTypeSchema,
  /** Traces, or dollars for a `monthly_spend` limit (as `used`). */
  limit_value: z.number(),
  threshold: z.int(),
  used: z.number(),
  month_start: isoDateTime,
  resets_at: isoDateTime,
  crossed_at: isoDateTime,
});
export type LimitAlertPayload = z.infer<typeof limitAlertPayloadSchema>;
