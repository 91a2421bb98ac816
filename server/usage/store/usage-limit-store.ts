import type { TraceTier } from '@contracts/usage/limit-period';
import type { DerivedTraceLimits } from '@server/usage/model/spend-limit';
import type {
  AlertDelivery,
  LimitScope,
  LimitType,
  ScopedLimit,
  OrgDefaultLimit,
  UsageLimit,
} from '@contracts/usage/usage-limits';

/**
 * The usage limits' part of the storage port (`UsageStore.limits`): limits and the org
 * default, the month's counts they are held to, alerts (once per month and threshold), the
 * webhook delivery log and refusals, in the domain's words. Enforcement itself happens inside
 * each backend's `ingestRuns` (a refused run comes back in `RunBatchResult.refused`), so the
 * decision and the insert are one step; a write here is seen by the next batch.
 */
export interface UsageLimitStore {
  /** Own limits of these workspaces, by workspace then type. */
  list(workspaceIds: readonly string[]): Promise<StoredLimit[]>;
  find(id: string): Promise<StoredLimit | undefined>;
  /** Creates or updates the workspace's limit of this type (one per type): keeps id and thresholds. */
  upsert(write: LimitWrite): Promise<StoredLimit>;
  remove(id: string): Promise<void>;
  defaults(): Promise<OrgDefaultLimit[]>;
  putDefault(limitType: LimitType, limitValue: number): Promise<OrgDefaultLimit>;
  /** Every limit in force (own, else an org default newer than the workspace), per workspace. */
  effective(): Promise<Map<string, EffectiveLimit[]>>;
  /** Traces counted against each limit type in `[month.startMs, month.endMs)`, per workspace. */
  monthUsage(
    workspaceIds: readonly string[],
    month: { startMs: number; endMs: number },
  ): Promise<Map<string, Record<LimitType, number>>>;
  alerts(workspaceIds: readonly string[], monthStartMs: number): Promise<AlertRow[]>;
  /**
   * Records alerts and returns those recorded now: a second one for the same (workspace, type,
   * month, threshold), from this process or another replica, is ignored and not returned.
   */
  insertAlerts(rows: readonly AlertRow[]): Promise<AlertRow[]>;
  recordDelivery(alert: AlertRow, attempt: DeliveryAttempt): Promise<void>;
  deliveries(workspaceIds: readonly string[], limit?: number): Promise<AlertDelivery[]>;
  /** Root runs refused per (workspace, type) in `[fromMs, toMs)`, optionally of one project. */
  refusals(
    workspaceIds: readonly string[],
    range: { fromMs: number; toMs: number },
    project?: string,
  ): Promise<RefusalCount[]>;
  workspaceNames(workspaceIds: readonly string[]): Promise<Map<string, string>>;
  /** Project, user and spend limits (every backend enforces them at ingestion). */
  readonly scoped: ScopedLimitStore;
  /** The month's counts and alerts of project, user and spend limits. */
  readonly scopedAlerts: ScopedAlertStore;
}

/** What alerts of project, user and spend limits read and write (`UsageLimitStore.scopedAlerts`). */
export interface ScopedAlertStore {
  /** Traces of the month so far per project or user target, keyed `scope|target`. */
  targetUsage(
    targets: readonly { scope: LimitScope; targetId: string }[],
    month: { startMs: number; endMs: number },
  ): Promise<Map<string, number>>;
  alerts(workspaceIds: readonly string[], monthStartMs: number): Promise<ScopedAlertRow[]>;
  /**
   * Records alerts and returns those recorded now: a second one for the same (workspace, scope,
   * target, type, month, threshold) is ignored and not returned.
   */
  insertAlerts(rows: readonly ScopedAlertRow[]): Promise<ScopedAlertRow[]>;
  /** Logs a delivery attempt beside the workspace limits' ones (`deliveries` lists both). */
  recordDelivery(alert: ScopedAlertRow, attempt: DeliveryAttempt): Promise<void>;
  /** Root runs refused by each project, user and spend limit of `workspaceIds` in `[fromMs, toMs)`. */
  refusals(
    workspaceIds: readonly string[],
    range: { fromMs: number; toMs: number },
  ): Promise<ScopedRefusalCount[]>;
}

/** Refusals of one project, user or spend limit (a spend limit's: scope `workspace`). */
export interface ScopedRefusalCount {
  workspaceId: string;
  scope: LimitScope;
  targetId: string;
  limitType: ScopedLimit['limit_type'];
  refused: number;
}

/**
 * An alert recorded for one (workspace, scope, target, type, month, threshold): a project's or
 * user's traces, or a workspace's spend (`used` and `limitValue` in dollars).
 */
export interface ScopedAlertRow {
  alertId: string;
  workspaceId: string;
  scope: LimitScope;
  targetId: string;
  limitType: ScopedLimit['limit_type'];
  monthStartMs: number;
  threshold: number;
  used: number;
  limitValue: number;
  crossedAt: Date;
}

/** Limits beside a workspace's own: `monthly_traces` of a project or user, a workspace's spend. */
export interface ScopedLimitStore {
  list(workspaceIds: readonly string[]): Promise<ScopedLimit[]>;
  find(id: string): Promise<ScopedLimit | undefined>;
  /** Creates or updates the limit of (workspace, scope, target, type): keeps id and thresholds. */
  upsert(write: ScopedLimitWrite): Promise<ScopedLimit>;
  remove(id: string): Promise<void>;
}

export interface ScopedLimitWrite {
  tenantId: string;
  scope: LimitScope;
  targetId: string;
  limitType: ScopedLimit['limit_type'];
  /** Traces, or dollars for a spend limit. */
  limitValue: number;
  /** A spend limit's split and the trace limits it buys at today's prices; null otherwise. */
  extendedShare: number | null;
  derived: DerivedTraceLimits | null;
  thresholds?: number[];
}

/** A stored limit with its alert thresholds (the wire shape leaves them out). */
export interface StoredLimit extends UsageLimit {
  alert_thresholds: number[];
}

export interface LimitWrite {
  tenantId: string;
  limitType: LimitType;
  limitValue: number;
  thresholds?: number[];
}

/** The limit a workspace is held to: its own, else the org default (if it came after it). */
export interface EffectiveLimit {
  workspaceId: string;
  limitType: LimitType;
  limitValue: number;
  thresholds: number[];
  source: 'own' | 'org_default';
}

/** An alert recorded for one (workspace, limit type, month, threshold). */
export interface AlertRow {
  alertId: string;
  workspaceId: string;
  limitType: LimitType;
  monthStartMs: number;
  threshold: number;
  used: number;
  limitValue: number;
  crossedAt: Date;
}

/** One attempt to deliver an alert, as the delivery log keeps it. */
export interface DeliveryAttempt {
  alertId: string;
  attempt: number;
  attemptedAt: Date;
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null;
  ok: boolean;
  error: string | null;
}

/**
 * A delivery attempt's stored columns, in the order both backends declare
 * `usage_limit_deliveries` (alert, workspace, limit type, threshold, attempt, time, status, ok,
 * error); the time as ISO text.
 */
export const deliveryColumns = (
  alert: Pick<AlertRow | ScopedAlertRow, 'alertId' | 'workspaceId' | 'limitType' | 'threshold'>,
  attempt: DeliveryAttempt,
) => [
  alert.alertId,
  alert.workspaceId,
  alert.limitType,
  alert.threshold,
  attempt.attempt,
  attempt.attemptedAt.toISOString(),
  attempt.status,
  attempt.ok,
  attempt.error,
];

export interface RefusalCount {
  workspaceId: string;
  limitType: LimitType;
  refused: number;
}

/** A new root run of a batch, as a backend's enforcement weighs it. */
export interface LimitCandidate {
  runId: string;
  workspaceId: string;
  projectName: string;
  tier: TraceTier;
  /** What project and user limits match (absent: only workspace limits apply). */
  projectId?: string;
  userId?: string | null;
}
