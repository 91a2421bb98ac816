import { Redis } from 'ioredis';

/** Connects to Redis once (no retries: a probe reports, it does not wait) and sends PING. */
export async function probeRedis(uri: string, timeoutMs: number): Promise<void> {
  const redis = new Redis(uri, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // Without a listener ioredis prints "Unhandled error event" with a stack trace; the socket's
  // error says more than the "Connection is closed." that connect() then rejects with.
  let socketError: Error | undefined;
  redis.on('error', (error: Error) => (socketError ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw socketError ?? error;
  } finally {
    redis.disconnect();
  }
}
