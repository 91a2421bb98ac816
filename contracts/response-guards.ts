import { CONSOLE_ROLES } from './console-roles';
import { LIMIT_SCOPES, LIMIT_TYPES, SPEND_LIMIT_TYPE, TRACE_TIERS } from './usage/usage-values';
import {
  array,
  boolean,
  int,
  matching,
  nullable,
  nullish,
  number,
  object,
  oneOf,
  string,
  withDefault,
  type Guard,
} from './wire-guard';

/**
 * The answers the usage tab's first screen reads, checked without zod (see `wire-guard.ts`).
 * Each guard mirrors the zod schema named beside it, check for check; `response-guards.test.ts`
 * holds them equal (the same type, verdicts and output). Change both together. The guards'
 * types are inferred, not declared, so that the test compares the guard's own type with zod's.
 */

/** zod's `z.iso.datetime({ offset: true })`: seconds required, `Z` or `±HH:MM`, real dates. */
const ISO_DATE_TIME = new RegExp(
  '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|' +
    '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|' +
    '(?:02)-(?:0[1-9]|1\\d|2[0-8])))' +
    'T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$',
);
/** zod's `z.uuid()`: RFC 9562 versions 1-8, and the nil and max UUIDs. */
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

const isoDateTime = matching(ISO_DATE_TIME, 'an ISO 8601 date-time with an offset');
const uuid = matching(UUID, 'a UUID');

/** `usageResponseSchema` (`usage/usage-schema.ts`). */
export const usageResponseGuard = object({
  stride: object({ days: int(), hours: int() }),
  usage: array(
    object({
      time_bucket: isoDateTime,
      dimensions: object({
        workspace_id: nullish(string()),
        workspace_name: nullish(string()),
        project_id: nullish(string()),
        project_name: nullish(string()),
        user_id: nullish(string()),
        user_email: nullish(string()),
        api_key_short_key: nullish(string()),
        trace_tier: nullish(oneOf(TRACE_TIERS)),
      }),
      traces: int({ min: 0 }),
    }),
  ),
});

/** `workspacesResponseSchema` (`usage/usage-schema.ts`). */
export const workspacesResponseGuard = array(
  object({
    id: string(),
    display_name: string(),
    is_personal: boolean,
    is_deleted: boolean,
    read_only: boolean,
    role_name: nullable(string()),
    permissions: array(string()),
    created_at: nullish(string()),
  }),
);

const count = int({ min: 0, max: Number.MAX_SAFE_INTEGER });
const price = number({ min: 0, max: 1_000_000 });
const perMetric = (value: Guard<number>) =>
  object({
    base_traces: value,
    extended_traces: value,
    extended_upgrades: value,
    deployment_runs: value,
    deployment_nodes: value,
    deployment_uptime_seconds: value,
  });

/** `planSchema` (`usage/plan-schema.ts`). */
export const planGuard = object({
  name: string({ min: 1, max: 100 }),
  seats: count,
  seat_price: price,
  included: perMetric(count),
  unit_prices: perMetric(price),
});

/** `limitStatusListSchema` (`usage/usage-limits.ts`). */
export const limitStatusListGuard = array(
  object({
    workspace_id: uuid,
    scope: oneOf(LIMIT_SCOPES),
    target_id: uuid,
    limit_type: oneOf([...LIMIT_TYPES, SPEND_LIMIT_TYPE] as const),
    limit_value: nullable(number()),
    limit_id: nullable(uuid),
    source: nullable(oneOf(['own', 'org_default'])),
    alert_thresholds: array(int()),
    used: number(),
    month_start: isoDateTime,
    resets_at: isoDateTime,
    reached_at: nullable(isoDateTime),
    refused: nullable(int()),
    alerts: array(object({ threshold: int(), crossed_at: isoDateTime })),
    can_edit: boolean,
  }),
);

/** `consoleConfigSchema` (`console-config.ts`). */
export const consoleConfigGuard = object({
  usage: object({
    source: oneOf(['embedded', 'langsmith']),
    upstream: nullable(string()),
    deploymentMode: oneOf(['cloud', 'self-hosted']),
    seed: withDefault(oneOf(['demo', 'none']), 'demo'),
    backend: withDefault(oneOf(['duckdb', 'clickhouse', 'langsmith']), 'duckdb'),
  }),
  deployment: object({
    source: oneOf(['embedded', 'remote']),
    upstream: nullable(string()),
    tracesToEmbeddedUsage: withDefault(boolean, false),
  }),
});

/** `consoleSessionSchema` (`console-session.ts`). */
export const consoleSessionGuard = object({
  mode: oneOf(['none', 'apikey', 'oidc']),
  user: nullable(object({ name: string(), role: oneOf(CONSOLE_ROLES) })),
});
