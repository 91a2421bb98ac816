import type { Context, MiddlewareHandler } from 'hono';
import { DRAIN_MAX_BYTES, drainBody } from './drain-body';
import { jsonError } from './json-error';

/** Bodies the deployment API takes: a conversation turn and its metadata, never megabytes. */
export const DEPLOYMENT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Refuses request bodies over `maxBytes` with a JSON 413, whether the size is declared
 * (Content-Length) or only seen while streaming (chunked): the handler never buffers more.
 * Mount it on any service that reads bodies (deployment, trace ingestion).
 */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.raw.headers.has('transfer-encoding')
      ? undefined
      : c.req.raw.headers.get('content-length');
    if (declared !== undefined && declared !== null) {
      const length = Number(declared);
      if (length <= maxBytes) return next();
      const drained = length <= DRAIN_MAX_BYTES && (await drainBody(body.getReader(), 0));
      return refuse(c, maxBytes, drained);
    }
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) return refuse(c, maxBytes, await drainBody(reader, size));
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks) });
    return next();
  };
}

function refuse(c: Context, maxBytes: number, drained: boolean) {
  // A client still sending when the server closes sees a reset socket, not this answer: the body
  // is read to its end first, and only a rest too large to read closes the connection.
  if (!drained) c.header('Connection', 'close');
  return jsonError(c, 413, `Request body larger than ${maxBytes} bytes.`);
}
