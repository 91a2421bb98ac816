import { z } from 'zod';
import { pruneStrategySchema, type ThreadTtl } from '../store/thread-ttl';

/** Minutes between two sweeps when langgraph.json names no `sweep_interval_minutes`. */
export const DEFAULT_SWEEP_INTERVAL_MINUTES = 5;

/**
 * langgraph.json's `checkpointer.ttl`, as the official CLI's schema defines it: what happens to
 * an expired thread, how often expired threads are looked for, and the time to live of a thread
 * created without one (none: threads live until deleted). Minutes throughout.
 */
export const checkpointerTtlSchema = z.looseObject({
  strategy: pruneStrategySchema.default('delete'),
  sweep_interval_minutes: z.number().positive().nullish(),
  default_ttl: z.number().positive().nullish(),
});

/**
 * langgraph.json's `store.ttl`: the time to live of an item put without `ttl`, whether reads
 * restart it unless they say otherwise (`refresh_ttl`), and how often expired items are deleted.
 */
export const storeTtlSchema = z.looseObject({
  refresh_on_read: z.boolean().default(true),
  sweep_interval_minutes: z.number().positive().nullish(),
  default_ttl: z.number().positive().nullish(),
});

/** How threads expire on this deployment. */
export interface ThreadTtlSettings {
  /** The time to live of a thread created without `ttl`. */
  defaultTtl?: ThreadTtl;
  sweepIntervalMs: number;
}

/** How store items expire on this deployment. */
export interface StoreTtlSettings {
  /** Minutes; items put without `ttl` never expire when unset. */
  defaultTtl?: number;
  refreshOnRead: boolean;
  sweepIntervalMs: number;
}

export function storeTtlSettingsOf(
  ttl: z.infer<typeof storeTtlSchema> | undefined,
): StoreTtlSettings {
  const minutes = ttl?.sweep_interval_minutes ?? DEFAULT_SWEEP_INTERVAL_MINUTES;
  return {
    refreshOnRead: ttl?.refresh_on_read ?? true,
    sweepIntervalMs: minutes * 60_000,
    ...(ttl?.default_ttl && { defaultTtl: ttl.default_ttl }),
  };
}

export function threadTtlSettingsOf(
  ttl: z.infer<typeof checkpointerTtlSchema> | undefined,
): ThreadTtlSettings {
  const minutes = ttl?.sweep_interval_minutes ?? DEFAULT_SWEEP_INTERVAL_MINUTES;
  return {
    sweepIntervalMs: minutes * 60_000,
    ...(ttl?.default_ttl && { defaultTtl: { strategy: ttl.strategy, minutes: ttl.default_ttl } }),
  };
}
