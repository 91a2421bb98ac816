import type { Plan } from '@contracts/usage/pricing';
import type { AttributedCountRow, PeriodCountRow } from '@server/usage/model/billing-usage';

/**
 * What a billing period is made of, the port's `ledger` concern: counts per (workspace,
 * project) over a span of time, each counted at the moment it happened (a trace at ingestion, an
 * upgrade when its feedback came, deployment work when metered), and the organization's plan.
 * The metrics and invoices are composed above the port (`model/billing-usage.ts`).
 */
export interface BillingLedger {
  /** Counts in [start, end), one row per (workspace, project, kind) with any. */
  periodCounts(start: Date, end: Date): Promise<PeriodCountRow[]>;
  /**
   * Counts in [start, end) per (workspace, user) or (workspace, API key) that sent the trace or
   * the upgrading feedback; deployment work is attributed to none (`attributedTo` null).
   */
  periodCountsBy(start: Date, end: Date, by: 'user' | 'api_key'): Promise<AttributedCountRow[]>;
  /** The stored plan, or undefined when none was ever set (the default plan applies). */
  plan(): Promise<Plan | undefined>;
  /** Stores the plan; returns the one it replaced (undefined: the default). */
  putPlan(plan: Plan, at: Date): Promise<Plan | undefined>;
}
