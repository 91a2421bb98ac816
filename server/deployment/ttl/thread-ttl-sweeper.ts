import { inBackground } from '@server/lib/in-background';
import type { CheckpointRollback } from '../store/deployment-store';
import type { ThreadTtlStore } from '../store/thread-ttl';

/** Threads read per query of a sweep; a sweep goes on until none is left. */
const BATCH = 100;

export interface SweepResult {
  deleted: number;
  pruned: number;
}

export interface ThreadTtlSweeper {
  /** Sweeps now (also called by the timer); all zero when another replica is sweeping. */
  sweep(now?: Date): Promise<SweepResult>;
  stop(): void;
}

/**
 * Every `intervalMs`, deletes or prunes the threads whose time to live has passed. One replica
 * sweeps at a time (the store's `exclusively`); a thread that cannot be swept is left for the
 * next sweep, so one bad thread never stops the others.
 */
export function createThreadTtlSweeper(options: {
  ttls: ThreadTtlStore;
  checkpoints: Pick<CheckpointRollback, 'keepLatest'>;
  /** Deletes a thread as `DELETE /threads/{id}` does. */
  deleteThread: (threadId: string) => Promise<boolean>;
  intervalMs: number;
  onError?: (threadId: string, error: unknown) => void;
  /** Deletes the store items expired at a time, on its own interval (one replica at a time). */
  store?: { sweep: (now: Date) => Promise<number>; intervalMs: number };
}): ThreadTtlSweeper {
  const { ttls, checkpoints, deleteThread } = options;

  async function sweepExpired(now: Date): Promise<SweepResult> {
    const result: SweepResult = { deleted: 0, pruned: 0 };
    const failed = new Set<string>();
    for (;;) {
      const due = (await ttls.expired(now, BATCH + failed.size)).filter(
        (thread) => !failed.has(thread.threadId),
      );
      if (due.length === 0) return result;
      for (const { threadId, strategy } of due) {
        try {
          if (strategy === 'delete') {
            if (await deleteThread(threadId)) result.deleted += 1;
          } else {
            await checkpoints.keepLatest(threadId);
            await ttls.markPruned(threadId, now);
            result.pruned += 1;
          }
        } catch (error) {
          failed.add(threadId);
          options.onError?.(threadId, error);
        }
      }
    }
  }

  let running: Promise<SweepResult> | undefined;
  const sweep = (now = new Date()) =>
    (running ??= ttls
      .exclusively(() => sweepExpired(now))
      .then((result) => result ?? { deleted: 0, pruned: 0 })
      .finally(() => (running = undefined)));
  const timer = setInterval(
    () => inBackground('Expired threads could not be swept', sweep()),
    options.intervalMs,
  );
  timer.unref();
  const { store } = options;
  const storeTimer =
    store &&
    setInterval(
      () =>
        inBackground(
          'Expired store items could not be swept',
          ttls.exclusively(() => store.sweep(new Date())),
        ),
      store.intervalMs,
    );
  storeTimer?.unref();
  return {
    sweep,
    stop: () => {
      clearInterval(timer);
      clearInterval(storeTimer);
    },
  };
}
