import { randomUUID } from 'node:crypto';
import type { MultitaskStrategy, RunStatus } from '@contracts/deployment';
import type { MetadataFilter } from './metadata-filter';

/** The records the deployment stores hold, the same for every backend (see deployment-store.ts). */

/** The stream modes the SDK names (`StreamMode`), as the platform accepts them. */
export const STREAM_MODES = [
  'values',
  'messages',
  'messages-tuple',
  'updates',
  'events',
  'debug',
  'custom',
  'tasks',
  'checkpoints',
] as const;
export type StreamMode = (typeof STREAM_MODES)[number];

/** `command` of a run: resume an interrupt, jump to a node, or update the state first. */
export interface RunCommand {
  resume?: unknown;
  goto?: string | string[] | null;
  update?: Record<string, unknown> | unknown[] | null;
  [key: string]: unknown;
}

/** What a run needs besides its input to execute and stream; stored with the run. */
export interface RunKwargs {
  stream_mode: StreamMode[];
  stream_subgraphs: boolean;
  stream_resumable: boolean;
  interrupt_before?: '*' | string[];
  interrupt_after?: '*' | string[];
  recursion_limit?: number;
  command?: RunCommand;
  webhook?: string;
  /** ISO time before which the run stays pending (`after_seconds`). */
  not_before?: string;
  /** The run's config merged over its assistant's (`configurable`, `tags`, ...). */
  config?: Record<string, unknown> & { configurable?: Record<string, unknown> };
  /** The run's `context` (over its assistant's), for graphs with a context schema. */
  context?: unknown;
  /** A stateless run's thread, deleted once the run has finished (`on_completion: delete`). */
  temporary?: boolean;
  /** Started through protocol v2 (`run.start`): streams LangGraph's v3 protocol events. */
  protocol?: boolean;
}

export interface ThreadRecord {
  thread_id: string;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
}

/** Columns a search can order by in SQL (`status` needs the computed view, see thread-view.ts). */
export type ThreadSortColumn = 'thread_id' | 'created_at' | 'updated_at';

/** A run as stored: the wire fields plus what the server needs to execute and roll it back. */
export interface RunRecord {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  status: RunStatus;
  multitask_strategy: MultitaskStrategy | null;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
  /** `null` when the run continues from the checkpoint (a resume, or a `command`). */
  input: Record<string, unknown> | null;
  error: string | null;
  kwargs: RunKwargs;
}

export interface NewRun {
  threadId: string;
  assistantId: string;
  input: Record<string, unknown> | null;
  metadata: Record<string, unknown>;
  strategy: MultitaskStrategy;
  kwargs: RunKwargs;
}

/** Runs stored before streaming existed have `{}`: they streamed nothing and take the defaults. */
export const DEFAULT_KWARGS: RunKwargs = {
  stream_mode: ['values'],
  stream_subgraphs: false,
  stream_resumable: false,
};

/** An assistant as the LangGraph API answers it (the fields of its current version). */
export interface Assistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: unknown;
  metadata: Record<string, unknown>;
  version: number;
  created_at: string;
  updated_at: string;
}

/** One saved version; `update` adds one, `setLatest` makes an older one current again. */
export type AssistantVersion = Omit<Assistant, 'updated_at'>;

/**
 * An assistant version's stored columns, in the order both SQL backends declare them
 * (assistant_id, graph_id, name, description, config, context, metadata, version): JSON as text.
 */
export const assistantColumns = (a: AssistantVersion) => [
  a.assistant_id,
  a.graph_id,
  a.name,
  a.description,
  JSON.stringify(a.config),
  JSON.stringify(a.context ?? {}),
  JSON.stringify(a.metadata),
  a.version,
];

/** A cron as the platform answers it (`Cron` of the SDK). */
export interface CronRecord {
  cron_id: string;
  assistant_id: string;
  /** `null` for a stateless cron: each firing runs on a new thread. */
  thread_id: string | null;
  schedule: string;
  /** The run body each firing creates (input, config, metadata, multitask strategy, ...). */
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  end_time: string | null;
  /** `null` once the schedule has no firing left before `end_time`. */
  next_run_date: string | null;
  enabled: boolean;
  on_run_completed: 'delete' | 'keep' | null;
  user_id: string | null;
  created_at: string;
  updated_at: string;
}

export type NewCron = Omit<CronRecord, 'cron_id' | 'created_at' | 'updated_at' | 'user_id'>;

/** The record a new cron is stored as: a fresh id, no user, created and updated now. */
export function newCronRecord(cron: NewCron): CronRecord {
  const now = new Date().toISOString();
  return { ...cron, cron_id: randomUUID(), user_id: null, created_at: now, updated_at: now };
}
export type CronChanges = Partial<Omit<CronRecord, 'cron_id' | 'created_at' | 'user_id'>>;

export const CRON_SORT_COLUMNS = [
  'cron_id',
  'assistant_id',
  'thread_id',
  'created_at',
  'updated_at',
  'next_run_date',
] as const;

export interface CronFilter {
  assistant_id?: string | null;
  thread_id?: string | null;
  enabled?: boolean | null;
  /** The caller's authorization: conditions on the cron's metadata. */
  metadata?: MetadataFilter;
}

/** A long-term memory item, as the LangGraph Store API answers it. */
export interface StoreItem {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface ItemSearch {
  filter?: Record<string, unknown> | null;
  /** Labels each item's namespace must hold (authorization's `namespace: {$contains}`). */
  labels?: readonly string[];
  limit: number;
  offset: number;
  /** Restarts the time to live of the items answered. */
  refreshTtl?: boolean;
}

export interface NamespaceQuery {
  prefix?: string[] | null;
  /** Labels each namespace must hold (authorization's `namespace: {$contains}`). */
  labels?: readonly string[];
  suffix?: string[] | null;
  max_depth?: number | null;
  limit: number;
  offset: number;
}

/** The flags of `POST /internal/truncate` (the official dev server's test route). */
export interface TruncateFlags {
  runs?: boolean;
  threads?: boolean;
  assistants?: boolean;
  store?: boolean;
  checkpoint?: boolean;
}
