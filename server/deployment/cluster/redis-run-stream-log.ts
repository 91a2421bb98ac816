import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { streamInterrupted, type RunStreamEvent, type RunStreamLog } from '../runs/run-stream-log';
import { pause } from '../runs/pause';
import type { WatchChannel } from './channel-watcher';

/** A live run's log lives this long after its last event (a run silent for an hour is lost). */
const LIVE_TTL_MS = 60 * 60_000;
/** As the in-process log: a finished run stays readable a minute, for late joins and resumes. */
const RETAIN_FINISHED_MS = 60_000;
/** A rolled-back run's log goes soon: only readers already in it read its end. */
const RETAIN_DISCARDED_MS = 5_000;
/** Events kept per run (approximately, `MAXLEN ~`): a resume older than that starts later. */
const MAX_EVENTS = 10_000;
/** How long a reader waits for a notification before it looks again (a message lost on reconnect). */
const RECHECK_MS = 1_000;
const READ_BATCH = 500;
const END = '__end';

/**
 * Appends one event. Entry ids are `0-<n>` with `n` counted in the run's meta hash, so an
 * event's index (its SSE id, `n - 1`) is the same on every replica and `Last-Event-ID` maps to
 * an exact XRANGE start. Refused once the log has ended. The channel message wakes readers.
 * Each writer numbers its own events of the run (`seq`, kept in the hash under its field): when
 * one of its earlier writes never landed (Redis was away), the log ends here with an
 * `interrupted` error instead, so no reader takes what follows for a whole stream.
 * An event of an attempt (ARGV[10], '' for none) older than the newest whose `metadata` the log
 * took is refused before anything else (its writer's numbering included): that copy was taken for
 * dead and is to stop; its writes must not reach readers nor end the log as interrupted.
 * KEYS: events stream, meta hash. ARGV: event, data, ttl ms, max events, channel, writer field,
 * seq, interrupted error data, finished ttl ms, attempt.
 */
const PUBLISH_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 0 or redis.call('HEXISTS', KEYS[2], 'done') == 1 then return -1 end
if ARGV[10] ~= '' then
  local newest = tonumber(redis.call('HGET', KEYS[2], 'attempt') or '0')
  local attempt = tonumber(ARGV[10])
  if attempt < newest then return -3 end
  if ARGV[1] == 'metadata' and attempt > newest then redis.call('HSET', KEYS[2], 'attempt', attempt) end
end
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[6]) or '0')
if last ~= tonumber(ARGV[7]) - 1 then
  local lost = redis.call('HINCRBY', KEYS[2], 'n', 1)
  redis.call('XADD', KEYS[1], '0-' .. lost, 'e', 'error', 'd', ARGV[8])
  local n = redis.call('HINCRBY', KEYS[2], 'n', 1)
  redis.call('XADD', KEYS[1], '0-' .. n, 'e', '${END}', 'd', 'null')
  redis.call('HSET', KEYS[2], 'done', '1')
  redis.call('PEXPIRE', KEYS[1], ARGV[9])
  redis.call('PEXPIRE', KEYS[2], ARGV[9])
  redis.call('PUBLISH', ARGV[5], n)
  return -2
end
redis.call('HSET', KEYS[2], ARGV[6], ARGV[7])
local n = redis.call('HINCRBY', KEYS[2], 'n', 1)
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[4], '0-' .. n, 'e', ARGV[1], 'd', ARGV[2])
if ARGV[1] == 'error' then redis.call('HSET', KEYS[2], 'error', ARGV[2]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', ARGV[5], n)
return n`;

/**
 * Ends the log with an end entry; refused to an attempt older than the log's newest (as a
 * publish). ARGV: ttl ms, channel, discarded ('1' or ''), result JSON ('' for none), attempt ('' for none).
 */
const CLOSE_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
if ARGV[5] ~= '' and tonumber(ARGV[5]) < tonumber(redis.call('HGET', KEYS[2], 'attempt') or '0') then return -3 end
if redis.call('HEXISTS', KEYS[2], 'done') == 0 then
  local n = redis.call('HINCRBY', KEYS[2], 'n', 1)
  redis.call('XADD', KEYS[1], '0-' .. n, 'e', '${END}', 'd', 'null')
  redis.call('HSET', KEYS[2], 'done', '1')
  if ARGV[4] ~= '' then redis.call('HSET', KEYS[2], 'result', ARGV[4]) end
end
if ARGV[3] == '1' then redis.call('HSET', KEYS[2], 'discarded', '1') end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('PUBLISH', ARGV[2], 0)
return 0`;

// One hash slot per run (`{runId}`), so the scripts also run on a Redis Cluster.
const eventsKey = (runId: string) => `deployment:run:{${runId}}:events`;
const metaKey = (runId: string) => `deployment:run:{${runId}}:meta`;
const channelOf = (runId: string) => `deployment:run-stream:${runId}`;
const entryIndex = (id: string) => Number(id.slice(id.indexOf('-') + 1));

const parseJson = (raw: string | null | undefined): unknown =>
  raw === null || raw === undefined ? undefined : JSON.parse(raw);

/**
 * The run stream log of cluster mode: one Redis stream per run, written by the replica that
 * executes it (and by the one that rolls it back), read by any replica. Readers page with
 * XRANGE on the shared command connection and wait for a message on the run's channel, so a
 * replica holds two connections however many clients stream. Writes go out in call order on
 * one connection; a failed write is logged (the run's state is in Postgres either way).
 */
export function createRedisRunStreamLog(redis: Redis, watch: WatchChannel): RunStreamLog {
  const shutdown = new AbortController();
  const warn = (error: unknown) => console.warn(`Run stream log (Redis): ${String(error)}`);
  /** This writer's field in a run's hash, and how many events it has sent to each run. */
  const writer = `w:${randomUUID()}`;
  const sent = new Map<string, number>();

  function end(
    runId: string,
    ttlMs: number,
    discarded: boolean,
    result?: unknown,
    attempt?: number,
  ) {
    sent.delete(runId);
    const resultJson = result === undefined ? '' : JSON.stringify(result);
    redis
      .eval(
        CLOSE_SCRIPT,
        2,
        eventsKey(runId),
        metaKey(runId),
        ttlMs,
        channelOf(runId),
        discarded ? '1' : '',
        resultJson,
        attempt ?? '',
      )
      .catch(warn);
  }

  /** Runs `poll` until it answers `true`, waiting on the run's channel in between. */
  async function untilTrue(runId: string, signal: AbortSignal, poll: () => Promise<boolean>) {
    const watcher = await watch(channelOf(runId));
    try {
      while (!signal.aborted && !shutdown.signal.aborted) {
        const wake = watcher.next();
        if (await poll()) return;
        await pause(RECHECK_MS, wake, AbortSignal.any([signal, shutdown.signal]));
      }
    } finally {
      watcher.release();
    }
  }

  return {
    async has(runId) {
      const [n, discarded] = await redis.hmget(metaKey(runId), 'n', 'discarded');
      return n !== null && discarded === null;
    },

    open(runId) {
      const key = metaKey(runId);
      redis.multi().hsetnx(key, 'n', 0).pexpire(key, LIVE_TTL_MS).exec().catch(warn);
    },

    publish(runId, event, data, attempt) {
      const seq = (sent.get(runId) ?? 0) + 1;
      sent.set(runId, seq);
      const interrupted = streamInterrupted(runId, 'Redis lost some of its events');
      redis
        .eval(
          PUBLISH_SCRIPT,
          2,
          eventsKey(runId),
          metaKey(runId),
          event,
          JSON.stringify(data ?? null),
          LIVE_TTL_MS,
          MAX_EVENTS,
          channelOf(runId),
          writer,
          seq,
          JSON.stringify(interrupted),
          RETAIN_FINISHED_MS,
          attempt ?? '',
        )
        .then((answer) => {
          // Refused (the log ended or is gone): nothing more of this writer goes to it.
          if (typeof answer === 'number' && answer < 0) sent.delete(runId);
        }, warn);
    },

    close: (runId, result, attempt) => end(runId, RETAIN_FINISHED_MS, false, result, attempt),
    discard: (runId) => end(runId, RETAIN_DISCARDED_MS, true),

    async *read(runId, from, signal = new AbortController().signal) {
      const stop = AbortSignal.any([signal, shutdown.signal]);
      let next = Math.max(0, from) + 1;
      const page = () => redis.xrange(eventsKey(runId), `0-${next}`, '+', 'COUNT', READ_BATCH);
      // The log's state, its first page and the subscription in one round trip (the two
      // commands share a connection). A first page read before the subscription held may
      // have missed a message: when it is empty, the loop reads again before it waits.
      const watching = watch(channelOf(runId));
      const [[n, discarded], first] = await Promise.all([
        redis.hmget(metaKey(runId), 'n', 'discarded'),
        page(),
      ]).catch(async (error: unknown) => {
        (await watching).release();
        throw error;
      });
      const watcher = await watching;
      try {
        // No log (none opened, expired, or lost by Redis) or a discarded one: the caller, which
        // knows the run, tells an expected end from a lost log (http/run-responses.ts).
        if (n === null || discarded !== null) return;
        let entries = first;
        let wake: Promise<void> | undefined;
        while (!stop.aborted) {
          for (const [id, fields] of entries) {
            const index = entryIndex(id);
            next = index + 1;
            const [, event = '', , data] = fields;
            if (event === END) return;
            yield { id: String(index - 1), event, data: parseJson(data) } satisfies RunStreamEvent;
            if (stop.aborted) return;
          }
          // Nothing new (after a read made while subscribed): the log may have expired (a run
          // gone for good) rather than be quiet.
          if (entries.length === 0 && wake) {
            if (!(await redis.exists(metaKey(runId)))) {
              // Gone before its end entry was read: an hour of silence, or a Redis that
              // restarted empty. Either way what came after the last event read is unknown.
              yield {
                id: String(next - 1),
                event: 'error',
                data: streamInterrupted(runId, 'its log is gone from Redis before its end'),
              };
              return;
            }
            await pause(RECHECK_MS, wake, stop);
          }
          wake = watcher.next();
          entries = await page();
        }
      } finally {
        watcher.release();
      }
    },

    async ended(runId) {
      await untilTrue(runId, new AbortController().signal, async () => {
        const [n, done] = await redis.hmget(metaKey(runId), 'n', 'done');
        return n === null || done !== null;
      });
    },

    result: async (runId) => parseJson(await redis.hget(metaKey(runId), 'result')),
    errorOf: async (runId) => parseJson(await redis.hget(metaKey(runId), 'error')),

    closeAll() {
      shutdown.abort();
    },
  };
}
