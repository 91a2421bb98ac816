/** The key `changed` / `notify` use for "a run of this thread started" (a thread join waits on it). */
export const threadRunStarted = (threadId: string) => `thread:${threadId}`;

/**
 * Wake-ups for code waiting on a run (join): `changed(runId)` resolves at the next `notify` of
 * that run (finished, deleted) or when `releaseAll` is called at shutdown.
 */
export function createRunEvents() {
  const waiters = new Map<string, Set<() => void>>();

  return {
    changed(runId: string): Promise<void> {
      return new Promise((resolve) => {
        const set = waiters.get(runId) ?? new Set();
        set.add(resolve);
        waiters.set(runId, set);
      });
    },
    notify(runId: string): void {
      const set = waiters.get(runId);
      waiters.delete(runId);
      set?.forEach((resolve) => resolve());
    },
    releaseAll(): void {
      const all = [...waiters.values()];
      waiters.clear();
      all.forEach((set) => set.forEach((resolve) => resolve()));
    },
  };
}

export type RunEvents = ReturnType<typeof createRunEvents>;
