import type { RunRecord } from '../store/records';

/** The key `changed` / `notify` use for "a run of this thread started" (a thread join waits on it). */
export const threadRunStarted = (threadId: string) => `thread:${threadId}`;

/**
 * What a notification says of the run, when its sender knows: the run as its end was recorded,
 * or that it was deleted (rolled back). A waiter given one need not read the run again.
 */
export type RunChange = { ended: RunRecord } | { gone: true };

/**
 * Wake-ups for code waiting on a run (join): `changed(runId)` resolves at the next `notify` of
 * that run (finished, deleted), with what the notification says, or when `releaseAll` is called
 * at shutdown (with nothing).
 */
export function createRunEvents() {
  const waiters = new Map<string, Set<(change: RunChange | undefined) => void>>();

  return {
    changed(runId: string): Promise<RunChange | undefined> {
      return new Promise((resolve) => {
        const set = waiters.get(runId) ?? new Set();
        set.add(resolve);
        waiters.set(runId, set);
      });
    },
    notify(runId: string, change?: RunChange): void {
      const set = waiters.get(runId);
      waiters.delete(runId);
      set?.forEach((resolve) => resolve(change));
    },
    releaseAll(): void {
      const all = [...waiters.values()];
      waiters.clear();
      all.forEach((set) => set.forEach((resolve) => resolve(undefined)));
    },
  };
}

export type RunEvents = ReturnType<typeof createRunEvents>;
