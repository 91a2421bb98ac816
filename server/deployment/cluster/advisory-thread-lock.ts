import type pg from 'pg';
import { createProcessThreadLock, type ThreadLock } from '@server/deployment/runs/thread-lock';

/**
 * The thread lock across replicas: a Postgres advisory lock on the thread id, held on a
 * connection of `lockPool` (its own pool, so tasks holding a lock never wait for a connection
 * that a lock waiter holds) for as long as the task runs. In front of it, the process's own keyed
 * mutex: a replica queues its requests for one thread in memory and holds one lock connection.
 * Measured in the design notes (2e): with the lock, 0 of 500 threads got two active runs under 8
 * concurrent `reject` creates from 2 processes; without, 497.
 */
export function createAdvisoryThreadLock(lockPool: pg.Pool): ThreadLock {
  const inProcess = createProcessThreadLock();
  return (threadId, task) =>
    new Promise((resolve, reject) => {
      inProcess(threadId, async () => {
        const client = await lockPool.connect();
        let broken: Error | undefined;
        try {
          await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [threadId]);
          // The caller goes on once the task is done (an HTTP answer leaves a round trip
          // earlier); this process's next task on the thread still waits for the unlock below,
          // and no other replica takes the lock before Postgres has run it.
          await task().then(resolve, reject);
          await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [threadId]);
        } catch (error) {
          // A lock or unlock that failed: the connection is dropped (which ends its locks).
          broken = error instanceof Error ? error : new Error(String(error));
          reject(broken);
        } finally {
          client.release(broken);
        }
      }).catch(reject);
    });
}
