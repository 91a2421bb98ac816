/**
 * The usage API's plain values, apart from its zod schemas (`usage-schema.ts` re-exports them):
 * the usage tab's first screen reads these, and importing the schemas' module would put zod's
 * runtime on that screen, since the bundler keeps every schema a module builds.
 */

/** Cloud has no granular usage data before this instant (spec section 1). */
export const CLOUD_USAGE_DATA_START = '2026-01-05T00:00:00.000Z';

export const GROUP_BY_VALUES = ['workspace', 'project', 'user', 'api_key'] as const;

/** A trace's retention tier: extended (400 days) or base (14 days, the default). */
export const TRACE_TIERS = ['longlived', 'shortlived'] as const;
export type TraceTier = (typeof TRACE_TIERS)[number];

/** The two trace limits LangSmith's usage-limits API knows (`usage-limits.ts`). */
export const LIMIT_TYPES = ['monthly_traces', 'monthly_longlived_traces'] as const;

/** Who a limit holds: a whole workspace, one of its projects, or one of its users. */
export const LIMIT_SCOPES = ['workspace', 'project', 'user'] as const;

/** A workspace's spend in dollars a month, enforced as the trace limits it buys. */
export const SPEND_LIMIT_TYPE = 'monthly_spend';
