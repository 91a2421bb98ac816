import type { Redis } from 'ioredis';
import { z } from 'zod';
import { createRunEvents, type RunChange, type RunEvents } from '../runs/run-events';
import type { RunRecord } from '../store/records';

const CHANNEL = 'deployment:run-changed';

/**
 * A message: `{runId, change?}` as JSON. A replica of an earlier version sent the bare run id,
 * which still wakes the run's waiters (they read the run, as they did then).
 */
const messageSchema = z.object({
  runId: z.string(),
  change: z
    .union([
      z.object({ gone: z.literal(true) }),
      z.object({
        ended: z.custom<RunRecord>((value) => typeof value === 'object' && value !== null),
      }),
    ])
    .optional(),
});

function parseMessage(message: string): { runId: string; change?: RunChange } | undefined {
  if (!message.startsWith('{')) return { runId: message };
  try {
    const parsed = messageSchema.safeParse(JSON.parse(message));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Run change notifications across replicas: a run finished or deleted on one replica wakes the
 * joins waiting for it on every replica (one message per run end, so every replica hears all of
 * them on one channel it subscribes to at start), with what changed, so a waiter need not read
 * the run again. Local waiters are woken at once as well.
 */
export async function createRedisRunEvents(redis: Redis, subscriber: Redis): Promise<RunEvents> {
  const local = createRunEvents();
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== CHANNEL) return;
    const parsed = parseMessage(message);
    if (parsed) local.notify(parsed.runId, parsed.change);
  });
  await subscriber.subscribe(CHANNEL);
  return {
    changed: local.changed,
    notify(runId, change) {
      local.notify(runId, change);
      redis.publish(CHANNEL, JSON.stringify({ runId, change })).catch((error: unknown) => {
        console.warn(`Run change notification (Redis): ${String(error)}`);
      });
    },
    releaseAll: local.releaseAll,
  };
}
