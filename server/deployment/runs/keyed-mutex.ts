/**
 * One async lock per key: `run(key, task)` starts `task` once every task queued before it on the
 * same key has settled. The deployment serializes all multitask handling of a thread with it.
 */
export function createKeyedMutex() {
  const tails = new Map<string, Promise<unknown>>();

  return async function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const current = previous.then(task, task);
    const tail = current.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await current;
    } finally {
      // Forget the key once nothing else queued behind this task, so the map stays small.
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
