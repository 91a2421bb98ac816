import type pg from 'pg';
import {
  answerBeforeThen,
  createProcessThreadLock,
  type ThreadLock,
} from '@server/deployment/runs/thread-lock';
import { RUN_COLUMNS, type RunRow, toRunRecord } from '../store/postgres/run-store';

/**
 * The thread lock across replicas: a Postgres advisory lock on the thread id, held on a
 * connection of `lockPool` (its own pool, so tasks holding a lock never wait for a connection
 * that a lock waiter holds) for as long as the task runs. In front of it, the process's own keyed
 * mutex: a replica queues its requests for one thread in memory and holds one lock connection.
 * Measured in the design notes (2e): with the lock, 0 of 500 threads got two active runs under 8
 * concurrent `reject` creates from 2 processes; without, 497.
 *
 * The lock is taken by `deployment.lock_thread`, which also returns the thread's active runs
 * read once it is held: the task's first read (a create's, a kick's) comes with the lock.
 *
 * The caller has its answer once the task (and not the unlock) is done: an HTTP answer leaves a
 * round trip earlier. This process's next task on the thread still waits for the unlock, and no
 * other replica takes the lock before Postgres has run it.
 */
export function createAdvisoryThreadLock(lockPool: pg.Pool): ThreadLock {
  const inProcess = createProcessThreadLock();
  return (threadId, task, then) =>
    answerBeforeThen(
      (whole) =>
        inProcess(threadId, async () => {
          const client = await lockPool.connect();
          let broken: Error | undefined;
          try {
            const { rows } = await client.query<RunRow>(
              `SELECT ${RUN_COLUMNS} FROM deployment.lock_thread($1) ORDER BY seq`,
              [threadId],
            );
            await whole({ active: rows.map(toRunRecord) });
            await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [threadId]);
          } catch (error) {
            // A lock or unlock that failed: the connection is dropped (which ends its locks).
            broken = error instanceof Error ? error : new Error(String(error));
            throw broken;
          } finally {
            client.release(broken);
          }
        }),
      task,
      then,
    );
}
