import type { RunRecord } from '../store/records';
import { createKeyedMutex } from './keyed-mutex';

/**
 * Runs `task` while holding the thread's lock: multitask decisions (create, cancel, delete) and
 * run start-up on one thread happen one after another. In one process a keyed mutex; across
 * replicas a database lock (see store/postgres/). `then`, when given, runs under the same lock
 * with `task`'s result once the caller has it (a run's start-up right after its creation, which
 * would otherwise take the lock a second time); only if `task` succeeded; it must not throw.
 */
export type ThreadLock = <T>(
  threadId: string,
  task: (held: HeldThread) => Promise<T>,
  then?: (result: T) => Promise<void>,
) => Promise<T>;

/** What a lock that read the thread in the round trip that took it hands its task. */
export interface HeldThread {
  /**
   * The thread's active runs (pending and running, oldest first), read once the lock was held:
   * the cluster's lock reads them with it. Undefined: the task reads them itself if it needs to.
   */
  active?: RunRecord[];
}

/**
 * Holds one lock (`hold`: a whole task under it) around `task` and then `then`, answering the
 * caller as soon as `task` settles.
 */
export function answerBeforeThen<T>(
  hold: (whole: (held: HeldThread) => Promise<void>) => Promise<void>,
  task: (held: HeldThread) => Promise<T>,
  then?: (result: T) => Promise<void>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    hold(async (held) => {
      let result: T;
      try {
        result = await task(held);
      } catch (error) {
        reject(error);
        return;
      }
      resolve(result);
      await then?.(result);
    }).catch(reject);
  });
}

export function createProcessThreadLock(): ThreadLock {
  const mutex = createKeyedMutex();
  return (threadId, task, then) =>
    then
      ? answerBeforeThen((whole) => mutex(threadId, () => whole({})), task, then)
      : mutex(threadId, () => task({}));
}
