import type { Redis } from 'ioredis';
import { createRunEvents, type RunEvents } from '../runs/run-events';

const CHANNEL = 'deployment:run-changed';

/**
 * Run change notifications across replicas: a run finished or deleted on one replica wakes the
 * joins waiting for it on every replica (one message per run end, so every replica hears all of
 * them on one channel it subscribes to at start). Local waiters are woken at once as well.
 */
export async function createRedisRunEvents(redis: Redis, subscriber: Redis): Promise<RunEvents> {
  const local = createRunEvents();
  subscriber.on('message', (channel: string, runId: string) => {
    if (channel === CHANNEL) local.notify(runId);
  });
  await subscriber.subscribe(CHANNEL);
  return {
    changed: local.changed,
    notify(runId) {
      local.notify(runId);
      redis.publish(CHANNEL, runId).catch((error: unknown) => {
        console.warn(`Run change notification (Redis): ${String(error)}`);
      });
    },
    releaseAll: local.releaseAll,
  };
}
