import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { openPool } from '@server/db/postgres';
import type { Config } from '@server/config';
import { poolSize, type ClientSize } from '@server/metrics/client-sizes';
import type { CheckpointRollback, RunStore } from '../store/deployment-store';
import { prepareStatements } from '../store/postgres/prepared-statements';
import { createRunLeases, ownerAlive } from '../store/postgres/run-leases';
import { createAdvisoryThreadLock } from './advisory-thread-lock';
import { createCancelBus } from './cancel-bus';
import { createChannelWatcher } from './channel-watcher';
import { createRedisRunEvents } from './redis-run-events';
import { createRedisRunStreamLog } from './redis-run-stream-log';
import { createRedisThreadEventLog } from './redis-thread-event-log';
import { createClusterRuns } from './cluster-runs';
import { holdReplicaLiveness } from './replica-liveness';

/**
 * Cluster mode, when both DATABASE_URI and REDIS_URI are set: the thread lock becomes a Postgres
 * advisory lock, runs carry this replica's id and a lease, cancel/rollback reach the replica
 * executing a run, run streams and protocol v2 thread events live in Redis (any replica streams
 * any run and any thread) and a run's end wakes the joins of every replica. `undefined` otherwise (one process: in-process is enough).
 */
export async function openCluster(
  config: Config,
  store: { runs: RunStore; checkpoints: CheckpointRollback },
) {
  if (!config.DATABASE_URI || !config.REDIS_URI) return undefined;
  // Lock waiters hold a connection each: their own pool, so a task under a lock never waits for one.
  const lockPool = openPool('Cluster database', { connectionString: config.DATABASE_URI, max: 20 });
  const leasePool = openPool('Cluster database', { connectionString: config.DATABASE_URI, max: 4 });
  for (const pool of [lockPool, leasePool]) prepareStatements(pool);
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}${ownerAlive.suffix}`;
  const leaseMs = config.DEPLOYMENT_RUN_LEASE_MS;
  // Stream writes and reads share one connection; a subscriber connection carries the wake-ups.
  const redis = new Redis(config.REDIS_URI, { lazyConnect: true });
  const subscriber = new Redis(config.REDIS_URI, { lazyConnect: true });
  // ioredis reconnects on its own; without a listener it prints each failure with its stack.
  for (const client of [redis, subscriber]) {
    client.on('error', (error: Error) => console.warn(`Cluster Redis: ${error.message}`));
  }
  await Promise.all([redis.connect(), subscriber.connect()]);
  const events = await createRedisRunEvents(redis, subscriber);
  const watch = createChannelWatcher(subscriber);
  const streams = createRedisRunStreamLog(redis, watch);
  const threadEvents = createRedisThreadEventLog(redis, watch);
  const runs = createClusterRuns({
    leases: createRunLeases(leasePool),
    bus: await createCancelBus(config.REDIS_URI),
    checkpoints: store.checkpoints,
    runs: store.runs,
    events,
    streams,
    owner,
    leaseMs,
  });
  // Taken before any run is claimed under `owner` (runs start with `start`), given up last.
  const liveness = await holdReplicaLiveness(config.DATABASE_URI, owner, runs.livenessChanged);
  return {
    owner,
    leaseMs,
    withThreadLock: createAdvisoryThreadLock(lockPool),
    events,
    streams,
    threadEvents,
    stopElsewhere: runs.stop,
    requeue: runs.requeue,
    shutdownGraceMs: config.DEPLOYMENT_SHUTDOWN_GRACE_MS,
    start: runs.start,
    holdsLiveness: runs.holdsLiveness,
    /** The cluster's own database clients, for `/metrics`. */
    clientSizes: (): Record<string, ClientSize> => {
      const ready = redis.status === 'ready' ? 1 : 0;
      const queued = redis.commandQueue.length;
      return {
        deployment_locks: poolSize(lockPool),
        deployment_leases: poolSize(leasePool),
        // One connection; commands sent and not yet answered wait on it.
        redis: { total: ready, idle: ready && queued === 0 ? 1 : 0, waiting: queued },
      };
    },
    async close() {
      await runs.close();
      subscriber.disconnect();
      await redis.quit().catch(() => undefined);
      await Promise.all([lockPool.end(), leasePool.end()]);
      await liveness.close();
    },
  };
}
