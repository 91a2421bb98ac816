import { createKeyedMutex } from './keyed-mutex';

/**
 * Runs `task` while holding the thread's lock: multitask decisions (create, cancel, delete) and
 * run start-up on one thread happen one after another. In one process a keyed mutex; across
 * replicas a database lock (see store/postgres/).
 */
export type ThreadLock = <T>(threadId: string, task: () => Promise<T>) => Promise<T>;

export const createProcessThreadLock = (): ThreadLock => createKeyedMutex();
