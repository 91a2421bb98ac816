import type { ClientSize } from '@server/metrics/client-sizes';
import type { DeploymentReport } from '@contracts/usage/deployment-report';
import type { GroupBy, TraceGroupBy, TraceTier, Workspace } from '@contracts/usage/usage-schema';
import type { TraceInput } from '@server/usage/ingest/trace-input';
import type { DeploymentQueryPlan, DeploymentUsageRow } from '@server/usage/model/deployment-plan';
import type { DimensionCatalog } from '@server/usage/model/dimension-catalog';
import type { Refusal } from '@server/usage/model/select-over-limit';
import type { Interval } from '@server/usage/model/time-segments';
import type { UsageMatrix } from '@server/usage/model/usage-matrix';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import type { SeedProfile } from '@server/usage/seed/seed-profiles';
import type { LlmUsageStore } from './llm-usage-store';
import type { ConsoleSessionStore } from './console-session-store';
import type { BillingLedger } from './billing-ledger';
import type { FeedbackStore } from './feedback-store';
import type { KeyRole } from './key-roles';
import type { UsageLimitStore } from './usage-limit-store';

/**
 * The usage service's storage port, split by concern as the deployment store is: the facts the
 * reads cut into matrices, the billing writes, the catalog, the keys, the limits and the seeder,
 * in the domain's words. Nothing above it sees SQL or a connection; the reads themselves are
 * written once above it (`server/usage/queries/`). Each backend lives in its own folder
 * (`duckdb/`: one embedded file, the default; `scale-out/`: ClickHouse + Postgres, any number of
 * replicas) and runs the same contract suite (`server/usage/test/contract/`).
 */
export interface UsageStore {
  readonly kind: 'duckdb' | 'clickhouse';
  readonly facts: FactReads;
  readonly billing: BillingWrites;
  readonly catalog: CatalogStore;
  readonly keys: KeyStore;
  /**
   * Usage limits, their alerts and refusals. Enforced inside `billing.ingestRuns`, exactly
   * whatever the number of senders (DuckDB: its one writer; scale-out: a counter row per
   * workspace and month, locked by the claim that counts runs against it, across replicas).
   */
  readonly limits: UsageLimitStore;
  /** What the traced LLM runs spent, and the model price maps that cost them. */
  readonly llm: LlmUsageStore;
  /** Feedback on runs, and the retention upgrades it causes (`feedback-store.ts`). */
  readonly feedback: FeedbackStore;
  /** The billing period's counts and the plan (`billing-ledger.ts`). */
  readonly ledger: BillingLedger;
  /** Every change made through the API's write endpoints (Postgres / DuckDB, never ClickHouse). */
  readonly audit: AuditStore;
  readonly seeder: Seeder;
  /** Its database clients' connections and queues, by client name (`/metrics`). */
  clientSizes(): Record<string, ClientSize>;
  /** The console's sign-ins (`server/console/auth/`), kept here so replicas share them. */
  readonly sessions: ConsoleSessionStore;
  /**
   * Billed traces, or null when the embedded store does not answer; on ClickHouse + Postgres it
   * rejects with the error of the server that does not, which `/healthz` names.
   */
  health(): Promise<{ traces: number | null }>;
  /** Waits for writes under way, then releases connections. */
  close(): Promise<void>;
}

/** The stored traces, read as the queries above the port need them. */
export interface FactReads {
  /**
   * Opens one consistent view of the facts (DuckDB: one read transaction on one connection).
   * `plan`, the reads' plan when known, lets a backend start reading before the catalog and
   * extent are known (scale-out: the plan's whole days). `signal` interrupts a read under way.
   * Release it when done.
   */
  snapshot(plan?: UsageQueryPlan, signal?: AbortSignal): Promise<FactSnapshot>;
  /** The deployments answer of a plan: rows with any metric, by bucket, then label, then id. */
  deploymentRows(plan: DeploymentQueryPlan): Promise<DeploymentUsageRow[]>;
}

/** Reads that all see the same data: positions the facts carry index the catalog read with them. */
export interface FactSnapshot {
  /** A dimension table in output order (the same object until the table changes). */
  catalog(groupBy: TraceGroupBy): Promise<DimensionCatalog>;
  /** The span that can hold traces of `groupBy`'s rollup (whole periods), or null when empty. */
  extent(groupBy: TraceGroupBy): Promise<Interval | null>;
  /**
   * The (value x bucket) matrix of `plan`'s grid, values placed by `catalog`, reads cut to
   * `extent` (both read from this snapshot).
   */
  matrix(
    plan: UsageQueryPlan,
    catalog: DimensionCatalog,
    extent: Interval | null,
  ): Promise<UsageMatrix>;
  /** Ends the view and frees what it holds; reads after it fail. */
  release(): Promise<void>;
}

/** Writes that bill: each decides its usage limits inside its own write transaction. */
export interface BillingWrites {
  /**
   * Bills a batch of root runs from one key into one workspace, counted at ingestion time. A run
   * id already billed (by any replica, any path) is a duplicate and changes nothing. Resolves
   * only once the new traces are durable.
   */
  ingestRuns(batch: RunBatch): Promise<RunBatchResult>;
  /**
   * Applies one deployment replica's report (kind=langsmith_deployments): its run and node
   * counts, and the uptime its heartbeat credits (`metering/replica-uptime.ts`), per project
   * (created when missing) in `workspaceId`. A report applied before (same replica, `seq` not
   * above the last) changes nothing.
   */
  applyDeploymentReport(
    workspaceId: string,
    report: DeploymentReport,
    nowMs: number,
  ): Promise<AppliedReport>;
}

/** The dimension tables (workspaces, projects, users, API keys) and the console keys. */
export interface CatalogStore {
  /**
   * Sets a project's default retention tier (the project is created when missing); traces
   * ingested from then on take it, earlier ones keep theirs. Returns the project's id.
   */
  setProjectTier(workspaceId: string, name: string, tier: TraceTier): Promise<string>;
  createWorkspace(workspace: NewWorkspace): Promise<void>;
  /** Stores a console key (organization:read); returns the number of workspaces granted. */
  createApiKey(newKey: NewApiKey): Promise<number>;
}

/**
 * The writes tests arrange data with, not part of the product's port: nothing the product does
 * adds, renames or removes one dimension value, or stores a trace at a time of its choosing. Each
 * backend implements them on its own tables, so the contract suite arranges the same data on
 * every backend.
 */
export interface StoreFixtures {
  /** Adds or renames one dimension value (a project names its workspace). */
  putDimension(row: DimensionRow): Promise<void>;
  /** Removes one dimension value; its traces then show it as an unlabelled id. */
  removeDimension(groupBy: GroupBy, id: string): Promise<void>;
  /** The ids of projects named by runs, created with stable ids when missing. */
  ensureProjects(workspaceId: string, names: readonly string[]): Promise<Map<string, string>>;
  /** Stores one trace counted at its own `start_time`; idempotent by `run_id`. */
  ingestTrace(trace: TraceInput): Promise<{ inserted: boolean }>;
}

/**
 * What a backend's factory returns: the port, and the writes tests arrange it with. The product
 * opens stores as `UsageStore` (`open-usage-store.ts`) and never sees `fixtures`.
 */
export type UsageStoreWithFixtures = UsageStore & { readonly fixtures: StoreFixtures };

/** What an API key may do, by its sha256 hex (`hashApiKey`). */
export interface KeyStore {
  /** The principal of a key, or undefined for a key the store does not know. */
  principalForKey(keyHash: string): Promise<Principal | undefined>;
  /** Who a key's ingested traces are billed to (all null for a key without an owner). */
  writerForKey(keyHash: string): Promise<KeyOwner>;
  /** The keys made with a role (CLI or API), newest first, revoked ones included. */
  list(): Promise<ApiKeySummary[]>;
  /**
   * Revokes a key by its id: from then on it authenticates nothing. Returns the key as it was
   * before, or undefined for an unknown id; revoking twice changes nothing more.
   */
  revoke(id: string, at: Date): Promise<ApiKeySummary | undefined>;
}

/** A key as its list shows it: never the key, only its prefix and last four characters. */
export interface ApiKeySummary {
  id: string;
  /** `lsv2_...abcd` */
  short_key: string;
  description: string;
  role: KeyRole;
  /** ISO 8601, UTC. */
  created_at: string;
  revoked_at: string | null;
}

/** The audit log: append-only, read newest first. */
export interface AuditStore {
  /** Appends one change; `at` and `id` are the store's. */
  record(change: AuditChange): Promise<AuditEntry>;
  /** A page of the log, newest first, and how many entries it holds in all. */
  page(offset: number, limit: number): Promise<{ entries: AuditEntry[]; total: number }>;
}

/** One change made through the API, as its writer describes it. */
export interface AuditChange {
  /** Who made it: the console's signed-in user, else the key's name. Never a key. */
  actor: string;
  /** What was done, `<thing>.<verb>`: `usage_limit.set`, `api_key.revoke`, ... */
  action: string;
  /** What it was done to: an id or a name. */
  target: string;
  /** The state before and after (JSON values; null when there was none). */
  before: unknown;
  after: unknown;
}

export interface AuditEntry extends AuditChange {
  id: string;
  /** ISO 8601, UTC. */
  at: string;
}

export interface Seeder {
  /** Loads `profile` into an empty store, once even when replicas race; real data is kept. */
  seedIfEmpty(profile: SeedProfile, onProgress?: (message: string) => void): Promise<SeedResult>;
}

/** One billable root run of a batch: its id and the project (`session_name`) it was sent to. */
export interface BillableRun {
  runId: string;
  projectName: string;
}

/** A batch of root runs from one key into one workspace. */
export interface RunBatch {
  workspaceId: string;
  userId: string | null;
  apiKeyId: string | null;
  runs: readonly BillableRun[];
}

export interface RunBatchResult {
  /** Runs stored as new traces (accepted for billing). */
  inserted: number;
  /** Runs of the batch already billed (the same run id sent again, or twice in the batch). */
  duplicates: number;
  /** New root runs refused by a usage limit: not stored, not billed (a resend may be, later). */
  refused: RefusedRun[];
  /** When the batch was billed: its traces count in the bucket of this instant. */
  ingestedAt: Date;
}

/** A new root run not billed because it would have gone over a usage limit. */
export interface RefusedRun extends Refusal {
  runId: string;
}

/** Who is calling: the permissions of an API key and the workspaces it can read. */
export interface Principal {
  /** The key's name (its label), what the audit log shows as the actor: never the key. */
  name: string;
  permissions: string[];
  workspaces: Workspace[];
}

/** The dimensions an API key's ingested traces are billed to. */
export interface KeyOwner {
  /** Owner of the key (the trace's user); null for a key without a recorded owner. */
  userId: string | null;
  /** The key's own `api_keys` row (the trace's API key), or null. */
  apiKeyId: string | null;
  /** The workspace of that row: where traces go when the request names none. */
  homeWorkspaceId: string | null;
}

export type DimensionRow =
  | { groupBy: 'workspace'; id: string; label: string }
  | { groupBy: 'project'; id: string; label: string; workspaceId: string }
  | { groupBy: 'user'; id: string; label: string | null }
  | { groupBy: 'api_key'; id: string; label: string; workspaceId: string };

export interface NewApiKey {
  key: string;
  label: string;
  /** Workspaces the key reads; empty for every workspace that exists now. */
  workspaceIds: readonly string[];
  /** Also `runs:create`, with write access to those workspaces: the key can ingest traces. */
  writer?: boolean;
  /** The key's role, which sets its permissions (`key-roles.ts`); `writer` says it otherwise. */
  role?: KeyRole;
  /** Its id in the key list; made when absent. */
  id?: string;
}

export interface NewWorkspace {
  id: string;
  displayName: string;
  createdAt: Date;
}

/** What one deployment report added (nothing when it had been applied before). */
export interface AppliedReport {
  applied: boolean;
  agentRuns: number;
  nodesExecuted: number;
  uptimeMs: number;
}

export interface SeedResult {
  seeded: boolean;
  traces: number;
  ms: number;
}

/** Thrown for a request the store refuses (unknown workspace, ...): the caller's mistake. */
export class UsageInputError extends RangeError {
  override name = 'UsageInputError';
}
