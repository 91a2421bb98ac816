import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createChannelWatcher } from '../cluster/channel-watcher';
import { createRedisThreadEventLog } from '../cluster/redis-thread-event-log';
import type { UnnumberedEvent } from './protocol-types';
import { createThreadEventLog, type ThreadEventLog } from './thread-event-log';

const { TEST_REDIS_URI } = process.env;
const connections: Redis[] = [];

/** A Redis-backed log on the test Redis (two connections, closed after the suite). */
async function redisLog(): Promise<ThreadEventLog> {
  const [redis, subscriber] = [1, 2].map(
    () => new Redis(TEST_REDIS_URI ?? '', { lazyConnect: true }),
  );
  if (!redis || !subscriber) throw new Error('no connection');
  connections.push(redis, subscriber);
  await Promise.all([redis.connect(), subscriber.connect()]);
  return createRedisThreadEventLog(redis, createChannelWatcher(subscriber));
}

const values = (n: number): UnnumberedEvent => ({ method: 'values', namespace: [], data: { n } });
const dataOf = (events: Array<{ params: { data: unknown } }>) =>
  events.map((event) => event.params.data);

afterAll(() => connections.forEach((connection) => connection.disconnect()));

type Backend = [name: string, open: () => Promise<ThreadEventLog>];
const BACKENDS: Backend[] = [
  ['in process', async () => createThreadEventLog()],
  ...(TEST_REDIS_URI ? [['Redis', redisLog] satisfies Backend] : []),
];

describe.each(BACKENDS)(
  'thread event log (%s; Redis when TEST_REDIS_URI is set)',
  (_name, open) => {
    it('numbers a thread`s events 1, 2, 3 across runs and replays those after `since`', async () => {
      const log = await open();
      const [thread, other] = [randomUUID(), randomUUID()];
      log.append(thread, 'run-1', values(1));
      log.append(thread, 'run-1', values(2));
      log.append(other, 'run-9', values(9));
      log.append(thread, 'run-2', values(3));

      const reader = await log.open(thread);
      const all = await reader.read(0);
      expect(all.map((event) => [event.seq, event.event_id])).toEqual([
        [1, '1'],
        [2, '2'],
        [3, '3'],
      ]);
      expect(dataOf(all)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(dataOf(await reader.read(1))).toEqual([{ n: 2 }, { n: 3 }]);
      expect(await log.lastSeq(thread)).toBe(3);
      expect(await log.lastSeq(other)).toBe(1);
      reader.close();
      log.close();
    });

    it('wakes a reader at the next event', async () => {
      const log = await open();
      const thread = randomUUID();
      const reader = await log.open(thread);
      const next = reader.next();
      let woken = false;
      void next.then(() => (woken = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(woken).toBe(false);
      log.append(thread, 'run-1', values(1));
      await next;
      expect(dataOf(await reader.read(0))).toEqual([{ n: 1 }]);
      reader.close();
      log.close();
    });

    it('leaves a rolled-back run out of readers opened after, not out of those already reading', async () => {
      const log = await open();
      const thread = randomUUID();
      await log.queueSession(thread, 'run-1');
      log.append(thread, 'run-1', values(1));
      const before = await log.open(thread);
      log.endSession(thread, 'run-1', true);
      await log.queueSession(thread, 'run-2');
      await log.turn(thread, 'run-2', new AbortController().signal);
      log.append(thread, 'run-2', values(2));

      const after = await log.open(thread);
      expect(dataOf(await before.read(0))).toEqual([{ n: 1 }, { n: 2 }]);
      expect((await after.read(0)).map((event) => event.seq)).toEqual([2]);
      before.close();
      after.close();
      log.close();
    });

    it('gives a queued session its turn once the sessions queued before it have ended', async () => {
      const log = await open();
      const thread = randomUUID();
      const signal = new AbortController().signal;
      await log.queueSession(thread, 'run-1');
      await log.queueSession(thread, 'run-2');
      await log.turn(thread, 'run-1', signal);
      let second = false;
      const turn2 = log.turn(thread, 'run-2', signal).then(() => (second = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(second).toBe(false);
      log.endSession(thread, 'run-1', false);
      await turn2;
      expect(await log.queuedSessions(thread)).toEqual(['run-2']);
      log.endSession(thread, 'run-2', false);
      log.close();
    });
  },
);
