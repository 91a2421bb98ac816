import type { Redis } from 'ioredis';
import type { ProtocolEvent } from '../protocol/protocol-types';
import type { ThreadEventLog, ThreadReader } from '../protocol/thread-event-log';
import { pause } from '../runs/pause';
import type { WatchChannel } from './channel-watcher';

/** A thread's log lives this long after its last event or queued session. */
const LIVE_TTL_MS = 60 * 60_000;
/** Events kept per thread (approximately, `MAXLEN ~`), as the in-process log keeps 10,000. */
const MAX_EVENTS = 10_000;
/** A session's turn is held this long without renewal: a replica that died hands it on after. */
const SESSION_LEASE_MS = 15_000;
/** How long a waiter waits for a message before it looks again (a message lost on reconnect). */
const RECHECK_MS = 1_000;
const READ_BATCH = 500;

/** The time on the Redis server, in ms: every replica's leases are read on one clock. */
const NOW = `local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)`;

/**
 * Appends one event: `seq` counted in the thread's meta hash, entry id `0-<seq>`, so a `since`
 * maps to an exact XRANGE start on every replica. The channel message wakes readers.
 * KEYS: events stream, meta hash, rolled-back set. ARGV: run id, method, params JSON, ttl ms,
 * max events, channel.
 */
const APPEND_SCRIPT = `
local n = redis.call('HINCRBY', KEYS[2], 'seq', 1)
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[5], '0-' .. n, 'r', ARGV[1], 'm', ARGV[2], 'p', ARGV[3])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
redis.call('PUBLISH', ARGV[6], n)
return n`;

/** KEYS: meta hash, sessions list. ARGV: run id, lease ms, ttl ms. */
const QUEUE_SCRIPT = `${NOW}
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[1], 'lease:' .. ARGV[1], now + tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/**
 * 1 when the run's session is first in the queue (or the queue is gone), else 0. Sessions ahead
 * whose lease has run out (their replica died) are dropped. KEYS: meta hash, sessions list.
 * ARGV: run id.
 */
const TURN_SCRIPT = `${NOW}
while true do
  local head = redis.call('LINDEX', KEYS[2], 0)
  if (not head) or head == ARGV[1] then return 1 end
  local lease = tonumber(redis.call('HGET', KEYS[1], 'lease:' .. head) or '0')
  if lease > now then return 0 end
  redis.call('LPOP', KEYS[2])
  redis.call('HDEL', KEYS[1], 'lease:' .. head)
end`;

/** KEYS: meta hash. ARGV: run id, lease ms. A session already dropped stays dropped. */
const RENEW_SCRIPT = `${NOW}
if redis.call('HEXISTS', KEYS[1], 'lease:' .. ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lease:' .. ARGV[1], now + tonumber(ARGV[2]))
return 1`;

/**
 * KEYS: meta hash, sessions list, rolled-back set. ARGV: run id, rolled back ('1' or ''), ttl
 * ms, channel.
 */
const END_SCRIPT = `
redis.call('LREM', KEYS[2], 1, ARGV[1])
redis.call('HDEL', KEYS[1], 'lease:' .. ARGV[1])
if ARGV[2] == '1' then
  redis.call('SADD', KEYS[3], ARGV[1])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
end
redis.call('PUBLISH', ARGV[4], 0)
return 1`;

// One hash slot per thread (`{threadId}`), so the scripts also run on a Redis Cluster.
const keysOf = (threadId: string) => ({
  events: `deployment:thread:{${threadId}}:events`,
  meta: `deployment:thread:{${threadId}}:meta`,
  sessions: `deployment:thread:{${threadId}}:sessions`,
  rolledBack: `deployment:thread:{${threadId}}:rolled-back`,
});
const channelOf = (threadId: string) => `deployment:thread-events:${threadId}`;
const seqOf = (entryId: string) => Number(entryId.slice(entryId.indexOf('-') + 1));

/**
 * The thread event log of cluster mode: per thread, a Redis stream of its events, a hash with
 * its `seq` and the leases of its queued sessions, the queue of sessions and the set of runs
 * rolled back. Any replica appends (the one that accepted the run's command streams it), reads
 * and replays. Readers page with XRANGE on the shared command connection and wait for a message
 * on the thread's channel, on the replica's one subscriber connection.
 */
export function createRedisThreadEventLog(redis: Redis, watch: WatchChannel): ThreadEventLog {
  const shutdown = new AbortController();
  /** The lease renewals of the sessions streaming from this replica. */
  const renewals = new Map<string, NodeJS.Timeout>();
  const warn = (error: unknown) => console.warn(`Thread event log (Redis): ${String(error)}`);

  function renew(threadId: string, runId: string) {
    if (renewals.has(runId)) return;
    const timer = setInterval(() => {
      redis.eval(RENEW_SCRIPT, 1, keysOf(threadId).meta, runId, SESSION_LEASE_MS).catch(warn);
    }, SESSION_LEASE_MS / 3);
    timer.unref();
    renewals.set(runId, timer);
  }

  async function readPage(threadId: string, after: number, leftOut: Set<string>) {
    const events: ProtocolEvent[] = [];
    let from = after + 1;
    for (;;) {
      const entries = await redis.xrange(
        keysOf(threadId).events,
        `0-${from}`,
        '+',
        'COUNT',
        READ_BATCH,
      );
      for (const [id, [, runId = '', , method = '', , params = '{}']] of entries) {
        const seq = seqOf(id);
        from = seq + 1;
        if (leftOut.has(runId)) continue;
        events.push({
          type: 'event',
          event_id: String(seq),
          seq,
          method,
          params: JSON.parse(params) as ProtocolEvent['params'],
        });
      }
      // A page of rolled-back events only: read on, so a reader never stalls behind them.
      if (events.length > 0 || entries.length < READ_BATCH) return events;
    }
  }

  return {
    async queueSession(threadId, runId) {
      const keys = keysOf(threadId);
      await redis.eval(
        QUEUE_SCRIPT,
        2,
        keys.meta,
        keys.sessions,
        runId,
        SESSION_LEASE_MS,
        LIVE_TTL_MS,
      );
    },

    queuedSessions: (threadId) => redis.lrange(keysOf(threadId).sessions, 0, -1),

    async turn(threadId, runId, signal) {
      renew(threadId, runId);
      const stop = AbortSignal.any([signal, shutdown.signal]);
      const keys = keysOf(threadId);
      const watcher = await watch(channelOf(threadId));
      try {
        while (!stop.aborted) {
          const wake = watcher.next();
          if ((await redis.eval(TURN_SCRIPT, 2, keys.meta, keys.sessions, runId)) === 1) return;
          await pause(RECHECK_MS, wake, stop);
        }
      } finally {
        watcher.release();
      }
    },

    append(threadId, runId, { method, namespace, node, data }) {
      const keys = keysOf(threadId);
      const params = { namespace, timestamp: Date.now(), ...(node && { node }), data };
      redis
        .eval(
          APPEND_SCRIPT,
          3,
          keys.events,
          keys.meta,
          keys.rolledBack,
          runId,
          method,
          JSON.stringify(params),
          LIVE_TTL_MS,
          MAX_EVENTS,
          channelOf(threadId),
        )
        .catch(warn);
    },

    endSession(threadId, runId, rolledBack) {
      clearInterval(renewals.get(runId));
      renewals.delete(runId);
      const keys = keysOf(threadId);
      redis
        .eval(
          END_SCRIPT,
          3,
          keys.meta,
          keys.sessions,
          keys.rolledBack,
          runId,
          rolledBack ? '1' : '',
          LIVE_TTL_MS,
          channelOf(threadId),
        )
        .catch(warn);
    },

    leaveOut(threadId, runId) {
      const key = keysOf(threadId).rolledBack;
      redis.multi().sadd(key, runId).pexpire(key, LIVE_TTL_MS).exec().catch(warn);
    },

    lastSeq: async (threadId) => Number((await redis.hget(keysOf(threadId).meta, 'seq')) ?? 0),

    async open(threadId): Promise<ThreadReader> {
      const watcher = await watch(channelOf(threadId));
      const rolledBack = await redis
        .smembers(keysOf(threadId).rolledBack)
        .catch((error: unknown) => {
          watcher.release();
          throw error;
        });
      const leftOut = new Set(rolledBack);
      const closed = new AbortController();
      const stop = AbortSignal.any([closed.signal, shutdown.signal]);
      return {
        read: (after) => readPage(threadId, after, leftOut),
        next: () => pause(RECHECK_MS, watcher.next(), stop),
        close() {
          if (closed.signal.aborted) return;
          closed.abort();
          watcher.release();
        },
      };
    },

    close() {
      shutdown.abort();
      renewals.forEach((timer) => clearInterval(timer));
      renewals.clear();
    },
  };
}
