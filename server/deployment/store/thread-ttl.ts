import { z } from 'zod';

/**
 * What happens to a thread once its time to live has passed, as the official servers define it:
 * `delete` removes the thread with its runs and checkpoints; `keep_latest` keeps the thread and
 * its latest checkpoint (per namespace) and deletes the older ones.
 */
export const pruneStrategySchema = z.enum(['delete', 'keep_latest']);
export type PruneStrategy = z.infer<typeof pruneStrategySchema>;

/** A thread's time to live: counted in minutes from the thread's last update. */
export interface ThreadTtl {
  strategy: PruneStrategy;
  minutes: number;
}

/** A thread whose time to live has passed, with what to do about it. */
export interface ExpiredThread {
  threadId: string;
  strategy: PruneStrategy;
}

/** Each thread's time to live, kept beside the thread record (deleted with it). */
export interface ThreadTtlStore {
  /** Sets (or with `null`, clears) the thread's time to live. */
  set(threadId: string, ttl: ThreadTtl | null): Promise<void>;
  get(threadId: string): Promise<ThreadTtl | undefined>;
  /**
   * Threads whose last update plus their time to live is at or before `now`, without an active
   * run, oldest first, at most `limit`. A `keep_latest` thread pruned since its last update is
   * not expired again until it is updated.
   */
  expired(now: Date, limit: number): Promise<ExpiredThread[]>;
  /** Records a `keep_latest` prune at `at`. */
  markPruned(threadId: string, at: Date): Promise<void>;
  /**
   * Runs `work` unless another process is sweeping (then answers `undefined` at once): one
   * replica sweeps at a time.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T | undefined>;
}
