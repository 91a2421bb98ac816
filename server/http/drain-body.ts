import type { MiddlewareHandler } from 'hono';

/**
 * How much of an unread or refused body is read and dropped so the connection stays usable;
 * past this much it is given up and the connection with it.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads a body to its end and drops it; false (the rest cancelled) past `DRAIN_MAX_BYTES` or when
 * the client went away. `alreadyRead` counts what the caller read before.
 */
export async function drainBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  alreadyRead = 0,
): Promise<boolean> {
  let read = alreadyRead;
  try {
    while (read <= DRAIN_MAX_BYTES) {
      const { done, value } = await reader.read();
      if (done) return true;
      read += value.length;
    }
    await reader.cancel();
  } catch {
    // The client went away mid-body: nobody is left to read an answer.
  }
  return false;
}

/**
 * Drops the body of a request answered without reading it (a 403, 404 or 415 in front of the
 * handler). Node parses the next request of a keep-alive connection only once this one's body is
 * read: left alone, a client that already sent it waits on a connection the server later resets.
 */
export function drainUnreadBody(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const body = c.req.raw.body;
    if (body === null || c.req.raw.bodyUsed || body.locked) return;
    void drainBody(body.getReader());
  };
}
