import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createChannelWatcher } from '../cluster/channel-watcher';
import { createRedisRunStreamLog } from '../cluster/redis-run-stream-log';
import { createRunStreamLog, type RunStreamEvent, type RunStreamLog } from './run-stream-log';

const { TEST_REDIS_URI } = process.env;

async function readAll(events: AsyncIterable<RunStreamEvent>) {
  const seen: RunStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** Resolves once `check` holds, polled every 5 ms (a write of the Redis log lands a moment later). */
async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 400 && !(await check()); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The one contract of the port, run on each implementation. */
function contract(name: string, open: () => RunStreamLog) {
  describe(`run stream log: ${name}`, () => {
    it('numbers events from 0 and lets several readers read them all, from any index', async () => {
      const log = open();
      const runId = randomUUID();
      log.open(runId);
      const whole = readAll(log.read(runId, 0));
      log.publish(runId, 'metadata', { run_id: runId });
      log.publish(runId, 'values', { n: 1 });
      log.publish(runId, 'values', { n: 2 });
      log.close(runId, { n: 2 });
      expect(await whole).toEqual([
        { id: '0', event: 'metadata', data: { run_id: runId } },
        { id: '1', event: 'values', data: { n: 1 } },
        { id: '2', event: 'values', data: { n: 2 } },
      ]);
      // A resume after Last-Event-ID 0 starts at index 1, with the same ids.
      expect((await readAll(log.read(runId, 1))).map((event) => event.id)).toEqual(['1', '2']);
      expect(await log.result(runId)).toEqual({ n: 2 });
      expect(await log.has(runId)).toBe(true);
    });

    it('wakes a reader waiting for the next event, and ends it when the run closes', async () => {
      const log = open();
      const runId = randomUUID();
      log.open(runId);
      const reader = log.read(runId, 0)[Symbol.asyncIterator]();
      const first = reader.next();
      log.publish(runId, 'values', { n: 1 });
      expect((await first).value).toEqual({ id: '0', event: 'values', data: { n: 1 } });
      const end = reader.next();
      const ended = log.ended(runId);
      log.close(runId);
      expect((await end).done).toBe(true);
      await ended;
      // Nothing is added once the log has ended.
      log.publish(runId, 'values', { n: 2 });
      expect(await readAll(log.read(runId, 0))).toHaveLength(1);
    });

    it('keeps the last error for the join, and ends readers of a discarded run', async () => {
      const log = open();
      const runId = randomUUID();
      log.open(runId);
      const reading = readAll(log.read(runId, 0));
      log.publish(runId, 'error', { error: 'RunRolledBack', message: 'gone' });
      await until(async () => (await log.errorOf(runId)) !== undefined);
      expect(await log.errorOf(runId)).toEqual({ error: 'RunRolledBack', message: 'gone' });
      log.discard(runId);
      expect((await reading).map((event) => event.event)).toEqual(['error']);
      await until(async () => !(await log.has(runId)));
      expect(await log.has(runId)).toBe(false);
      expect(await readAll(log.read(runId, 0))).toEqual([]);
    });

    it('has no log for a run never opened, and drops events published to it', async () => {
      const log = open();
      const runId = randomUUID();
      log.publish(runId, 'values', {});
      expect(await log.has(runId)).toBe(false);
      expect(await readAll(log.read(runId, 0))).toEqual([]);
      expect(await log.result(runId)).toBeUndefined();
    });
  });
}

contract('in process', () => createRunStreamLog());

const connections: Redis[] = [];
describe.skipIf(!TEST_REDIS_URI)('(Redis; skipped: TEST_REDIS_URI unset)', () => {
  contract('Redis', () => {
    const redis = new Redis(TEST_REDIS_URI ?? '');
    const subscriber = new Redis(TEST_REDIS_URI ?? '');
    connections.push(redis, subscriber);
    return createRedisRunStreamLog(redis, createChannelWatcher(subscriber));
  });

  it('ends a reader with a StreamInterrupted error when the log vanishes before its end (Redis restarted empty)', async () => {
    const redis = new Redis(TEST_REDIS_URI ?? '');
    const subscriber = new Redis(TEST_REDIS_URI ?? '');
    connections.push(redis, subscriber);
    const log = createRedisRunStreamLog(redis, createChannelWatcher(subscriber));
    const runId = randomUUID();
    log.open(runId);
    log.publish(runId, 'metadata', { run_id: runId });
    const reading = readAll(log.read(runId, 0));
    await until(async () => (await redis.exists(`deployment:run:{${runId}}:events`)) === 1);
    await redis.del(`deployment:run:{${runId}}:events`, `deployment:run:{${runId}}:meta`);
    const events = await reading;
    expect(events.map((event) => event.event)).toEqual(['metadata', 'error']);
    expect(events.map((event) => event.id)).toEqual(['0', '1']);
    expect(events[1]?.data).toMatchObject({ error: 'StreamInterrupted' });
  });

  it('ends the stream with a StreamInterrupted error when an event of its writer never reached Redis', async () => {
    const redis = new Redis(TEST_REDIS_URI ?? '');
    const subscriber = new Redis(TEST_REDIS_URI ?? '');
    connections.push(redis, subscriber);
    const log = createRedisRunStreamLog(redis, createChannelWatcher(subscriber));
    const runId = randomUUID();
    log.open(runId);
    log.publish(runId, 'metadata', { run_id: runId });
    await until(async () => (await redis.exists(`deployment:run:{${runId}}:events`)) === 1);
    // Redis away for one write: the connection is closed under it, then opened again.
    const closed = new Promise((resolve) => redis.once('end', resolve));
    redis.disconnect();
    log.publish(runId, 'values', { step: 1 });
    await closed;
    await redis.connect();
    log.publish(runId, 'values', { step: 2 });
    log.close(runId);
    const events = await readAll(log.read(runId, 0));
    expect(events.map((event) => event.event)).toEqual(['metadata', 'error']);
    expect(events[1]?.data).toMatchObject({ error: 'StreamInterrupted' });
  });

  afterAll(() => connections.forEach((connection) => connection.disconnect()));
});
