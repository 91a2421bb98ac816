import { Duplex } from 'node:stream';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { parseAccept } from 'hono/utils/accept';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';

type Encoding = 'br' | 'gzip';

/** Smaller bodies gain nothing worth the CPU. */
const THRESHOLD_BYTES = 1024;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** Brotli when the client takes it (smaller), else gzip; none when it accepts neither. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepts = parseAccept(acceptEncoding);
  const q = (name: string) =>
    accepts.find((item) => item.type.toLowerCase() === name)?.q ??
    accepts.find((item) => item.type === '*')?.q ??
    0;
  const [best] = (['br', 'gzip'] as const)
    .map((encoding) => ({ encoding, q: q(encoding) }))
    .filter((item) => item.q > 0)
    .sort((a, b) => b.q - a.q);
  return best?.encoding;
}

/**
 * Every compressible response (HTML, JS, CSS, JSON, CSV…) in brotli or gzip, streamed through
 * node:zlib. Each chunk is flushed as it is written, so a streamed body (the CSV export) stays
 * streamed: the client receives compressed rows as the server produces them, and no response is
 * held in memory whole. Server-sent events, ranges and already-encoded bodies (precompressed
 * assets, a proxied upstream's gzip) pass through untouched. Hono's own `compress` has no brotli.
 */
export function compressResponses(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const { res } = c;
    const type = res.headers.get('Content-Type') ?? '';
    const length = res.headers.get('Content-Length');
    if (
      !res.body ||
      c.req.method === 'HEAD' ||
      res.status === 204 ||
      res.status === 206 ||
      res.headers.has('Content-Encoding') ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
      type.startsWith('text/event-stream') ||
      NO_TRANSFORM.test(res.headers.get('Cache-Control') ?? '') ||
      (length !== null && Number(length) < THRESHOLD_BYTES)
    ) {
      return;
    }
    const vary = res.headers.get('Vary');
    if (!vary?.toLowerCase().includes('accept-encoding')) {
      res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    }
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return;
    const compressor =
      encoding === 'br'
        ? createBrotliCompress({
            flush: constants.BROTLI_OPERATION_FLUSH,
            params: {
              // Quality 5: most of brotli's gain at a fraction of quality 11's CPU, per response.
              [constants.BROTLI_PARAM_QUALITY]: 5,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          })
        : createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH });
    const transform = Duplex.toWeb(compressor) as ReadableWritablePair<Uint8Array, Uint8Array>;
    c.res = new Response(res.body.pipeThrough(transform), res);
    c.res.headers.delete('Content-Length');
    c.res.headers.set('Content-Encoding', encoding);
    const etag = c.res.headers.get('ETag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
  };
}
