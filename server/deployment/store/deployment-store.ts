import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { RunStatus } from '@contracts/deployment';
import type {
  Assistant,
  AssistantVersion,
  CronChanges,
  CronFilter,
  CronRecord,
  ItemSearch,
  NamespaceQuery,
  NewCron,
  NewRun,
  RunRecord,
  StoreItem,
  ThreadRecord,
  ThreadSortColumn,
  TruncateFlags,
} from './records';
import type { MetadataFilter } from './metadata-filter';
import type { ThreadTtlStore } from './thread-ttl';

/**
 * The deployment API's storage port: what the routes, the run manager and the executor ask of a
 * backend, in the domain's words. Every method is asynchronous; a backend lives in its own folder
 * (`sqlite/`: one file, one process, the default; `postgres/`: chosen by `DATABASE_URI`).
 */

/** Thread records (the conversation state itself lives in the checkpointer). */
export interface ThreadStore {
  /** Creates the thread; `undefined` when a thread with that id already exists. */
  create(metadata: Record<string, unknown>, threadId?: string): Promise<ThreadRecord | undefined>;
  get(threadId: string): Promise<ThreadRecord | undefined>;
  /**
   * Every thread meeting `filter` (the caller's authorization), in the given order (ties in
   * insertion order); searches filter these.
   */
  all(
    column: ThreadSortColumn,
    order: 'asc' | 'desc',
    filter?: MetadataFilter,
  ): Promise<ThreadRecord[]>;
  touch(threadId: string): Promise<void>;
  /**
   * Merges `metadata` into the thread's metadata, as the platform's PATCH does. `seen`: the
   * thread as the caller just read it, which lets a backend write once when the metadata is
   * still the same (else it reads, merges and writes under a row lock).
   */
  patchMetadata(
    threadId: string,
    metadata: Record<string, unknown>,
    seen?: ThreadRecord,
  ): Promise<ThreadRecord | undefined>;
  /** Deletes the record only; the caller stops runs and removes checkpoints. */
  delete(threadId: string): Promise<boolean>;
  /** A new thread holding a copy of every checkpoint and pending write of `source`. */
  copy(source: ThreadRecord): Promise<ThreadRecord>;
  count(): Promise<number>;
}

export interface RunPage {
  limit: number;
  offset: number;
  status?: RunStatus;
}

export interface RunClaim {
  runId: string;
  owner: string;
  leaseMs: number;
}

/** A run just claimed: which start of it this is, and the checkpoint it starts from. */
export interface ClaimedRun {
  /** 1 for a run's first start, more after a re-queue. */
  attempt: number;
  /** The thread's head (newest root checkpoint) when claimed; null for an empty thread. */
  startCheckpointId: string | null;
}

/** Run records. */
export interface RunStore {
  /** A new pending run; its thread's `updated_at` becomes the run's creation time. */
  create(run: NewRun): Promise<RunRecord>;
  get(threadId: string, runId: string): Promise<RunRecord | undefined>;
  /** Newest first. */
  list(threadId: string, page: RunPage): Promise<RunRecord[]>;
  /** Pending and running runs of a thread, oldest first. */
  active(threadId: string): Promise<RunRecord[]>;
  latest(threadId: string): Promise<RunRecord | undefined>;
  /**
   * Answers the run as updated (`undefined` when it no longer exists). `owner` (cluster mode):
   * only while that replica still holds the run; `undefined` when another one has taken it.
   */
  setStatus(
    runId: string,
    status: RunStatus,
    error?: string | null,
    owner?: string,
  ): Promise<RunRecord | undefined>;
  /**
   * Takes a pending run to `running` for `owner` (a replica), recording the thread's head as the
   * checkpoint it starts from, read in the same statement (called under the thread's lock, with
   * no run of the thread executing, so no write lands between). Undefined when the run is no
   * longer pending. At most one running run per thread.
   */
  claim(claim: RunClaim): Promise<ClaimedRun | undefined>;
  delete(runId: string): Promise<void>;
  threadsWithPendingRuns(): Promise<string[]>;
  /** Threads with a run still `running` (on start-up: cut off by a crash). */
  threadsWithRunningRuns(): Promise<string[]>;
  /** Marks every `running` run as failed with `reason`; returns how many. */
  failOrphanedRuns(reason: string): Promise<number>;
  count(): Promise<number>;
  /** How many stored runs have each status (the `/metrics` gauges). */
  countByStatus(): Promise<Partial<Record<RunStatus, number>>>;
}

/** Assistants and their versions. */
export interface AssistantStore {
  get(assistantId: string): Promise<Assistant | undefined>;
  /** Newest first. */
  all(): Promise<Assistant[]>;
  /** Highest version first. */
  versions(assistantId: string): Promise<AssistantVersion[]>;
  version(assistantId: string, version: number): Promise<AssistantVersion | undefined>;
  /** A new assistant, or a new version of one (saved as current and as a version). */
  saveVersion(assistant: Assistant): Promise<Assistant>;
  /**
   * Saves `assistant` as a new assistant unless one with its id exists (kept as it is): replicas
   * starting at once each try to create the same system assistants.
   */
  createIfAbsent(assistant: Assistant): Promise<void>;
  /** Points the assistant at a saved version without adding one. */
  setCurrent(assistant: Assistant): Promise<Assistant>;
  delete(assistantId: string): Promise<boolean>;
}

export interface CronPage {
  limit: number;
  offset: number;
  /** One of CRON_SORT_COLUMNS (validated by the route). */
  sortBy: string;
  sortOrder: 'asc' | 'desc';
}

export interface CronStore {
  create(cron: NewCron): Promise<CronRecord>;
  get(cronId: string): Promise<CronRecord | undefined>;
  update(cronId: string, changes: CronChanges): Promise<CronRecord | undefined>;
  delete(cronId: string): Promise<boolean>;
  search(filter: CronFilter, page: CronPage): Promise<CronRecord[]>;
  count(filter: CronFilter): Promise<number>;
  /** Enabled crons whose next firing is at or before `now` (ISO), soonest first. */
  due(now: string): Promise<CronRecord[]>;
  /** Removes the crons of a deleted thread (they could not fire anymore). */
  deleteForThread(threadId: string): Promise<void>;
}

/**
 * The Store API's items (long-term memory). An item may expire: `ttlMinutes` after it was put,
 * or after it was last read with `refreshTtl`; an expired item is never answered, and
 * `sweepExpired` deletes it.
 */
export interface KvStore {
  put(
    namespace: string[],
    key: string,
    value: Record<string, unknown>,
    ttlMinutes?: number | null,
  ): Promise<void>;
  get(namespace: string[], key: string, refreshTtl?: boolean): Promise<StoreItem | null>;
  delete(namespace: string[], key: string): Promise<void>;
  /** Items under `prefix`, most recently updated first, matching every `filter` condition. */
  search(prefix: string[], search: ItemSearch): Promise<StoreItem[]>;
  /** Distinct namespaces, cut to `max_depth` labels, sorted. */
  namespaces(query: NamespaceQuery): Promise<string[][]>;
  /** Deletes the items expired at `now`; answers how many. */
  sweepExpired(now: Date): Promise<number>;
}

/** A LangGraph checkpointer that adds the executing run's metadata to each checkpoint it writes. */
export interface RunCheckpointer {
  saver: BaseCheckpointSaver;
  /** The metadata of the run executing on each thread (set by the executor). */
  runMetadata: Map<string, Record<string, unknown>>;
  writes: RunWriteFence;
}

/** A run's checkpoint writes, which stop for good once the run has been stopped. */
export interface RunWriteFence {
  /** The run (an attempt of it) starts executing: its writes are taken. */
  started(runId: string): void;
  /**
   * The run was stopped: its later writes are refused; resolves once those under way have landed
   * (or failed), after which the run writes nothing more.
   */
  stopped(runId: string): Promise<void>;
}

/** Checkpoint surgery the multitask strategies need, each in one transaction. */
export interface CheckpointRollback {
  /**
   * Returns the thread's history to `headCheckpointId` (to empty when null) and deletes the run
   * record `runId` with it: every checkpoint and pending write off that chain goes.
   */
  rollback(threadId: string, headCheckpointId: string | null, runId?: string): Promise<number>;
  /** Deletes a stateless run's thread with its runs, checkpoints and pending writes. */
  removeThread(threadId: string): Promise<void>;
  /**
   * Keeps the thread's latest checkpoint of each namespace (the one a run starts from) with its
   * pending writes and the values it references, and deletes the rest; answers how many
   * checkpoints went.
   */
  keepLatest(threadId: string): Promise<number>;
}

/** Everything a deployment keeps, from one backend. */
export interface DeploymentStore {
  /** Which backend this is (for health and logs). */
  backend: 'sqlite' | 'postgres';
  threads: ThreadStore;
  runs: RunStore;
  assistants: AssistantStore;
  crons: CronStore;
  kv: KvStore;
  checkpointer: RunCheckpointer;
  checkpoints: CheckpointRollback;
  /** Threads' time to live (`ttl` on create, langgraph.json `checkpointer.ttl`). */
  ttls: ThreadTtlStore;
  /** Empties what the flags name (`POST /internal/truncate`); system assistants stay. */
  truncate(flags: TruncateFlags): Promise<void>;
  /** A connection pool's connections by state (`total`, `idle`, `waiting` requests); SQLite has none. */
  poolSize?: () => Record<'total' | 'idle' | 'waiting', number>;
  close(): Promise<void>;
}
