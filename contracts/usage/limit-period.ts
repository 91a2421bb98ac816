import type { LimitType } from './usage-limits';

/**
 * The counting rule of usage limits, shared by the server (enforcement) and the SPA (the bar):
 * a workspace's traces are counted per UTC calendar month, by ingestion time.
 */

/** A trace's retention tier: LangSmith's base (14 days) or extended (400 days, "long-lived"). */
export type TraceTier = 'short' | 'long';

export interface MonthWindow {
  startMs: number;
  /** The next month's first instant: when the count resets. */
  endMs: number;
}

/** The UTC calendar month holding `ms`, half-open `[start, end)`. */
export function limitMonth(ms: number): MonthWindow {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { startMs: Date.UTC(year, month, 1), endMs: Date.UTC(year, month + 1, 1) };
}

/** Whether a trace of `tier` counts against a limit of `type`: long-lived counts long only. */
export function countsAgainst(type: LimitType, tier: TraceTier): boolean {
  return type === 'monthly_traces' || tier === 'long';
}

/** Whole seconds from `nowMs` to the reset (at least 1: "now" is never a retry time). */
export function secondsUntilReset(nowMs: number): number {
  return Math.max(1, Math.ceil((limitMonth(nowMs).endMs - nowMs) / 1000));
}

/**
 * The `Retry-After` value of a limit refusal: the reset as an HTTP-date (RFC 9110 allows the
 * date or seconds). The langsmith SDK sleeps for a numeric Retry-After before retrying, which
 * would stall its queue for days; a date makes it back off briefly and report the 429 instead.
 */
export function retryAfterHeader(nowMs: number): string {
  return new Date(limitMonth(nowMs).endMs).toUTCString();
}
