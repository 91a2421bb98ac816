import { Redis } from 'ioredis';
import { z } from 'zod';

const CHANNEL = 'deployment:run-cancel';

const cancelMessage = z.object({
  runId: z.string(),
  threadId: z.string(),
  action: z.enum(['interrupt', 'rollback']),
});
export type CancelMessage = z.infer<typeof cancelMessage>;

/**
 * Cancel requests between replicas over Redis pub/sub, as the Agent Server sends them to the
 * worker that owns a run (measured in the design notes: p50 1.45 ms to the owner's abort). A
 * message can be missed (a replica reconnecting), so the request is also written to the run's
 * row, which the owner re-reads on every lease heartbeat.
 */
export async function createCancelBus(redisUri: string) {
  const publisher = new Redis(redisUri, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(redisUri, { lazyConnect: true });
  for (const client of [publisher, subscriber]) {
    client.on('error', (error: Error) => console.warn(`Cancel bus Redis: ${error.message}`));
  }
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers = new Set<(message: CancelMessage) => void>();
  subscriber.on('message', (_channel: string, raw: string) => {
    const parsed = cancelMessage.safeParse(JSON.parse(raw));
    if (parsed.success) handlers.forEach((handle) => handle(parsed.data));
  });
  await subscriber.subscribe(CHANNEL);

  return {
    async publish(message: CancelMessage): Promise<void> {
      await publisher.publish(CHANNEL, JSON.stringify(message));
    },
    onCancel(handle: (message: CancelMessage) => void): void {
      handlers.add(handle);
    },
    async close(): Promise<void> {
      handlers.clear();
      subscriber.disconnect();
      await publisher.quit().catch(() => undefined);
    },
  };
}

export type CancelBus = Awaited<ReturnType<typeof createCancelBus>>;
