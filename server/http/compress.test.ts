import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { Hono, type Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, compressResponses } from './compress';

const ROWS = 'Time Bucket Start,Traces\r\n2026-01-05T00:00:00.000Z,12\r\n'.repeat(200);

function csv(text: string) {
  return new Response(text, {
    headers: { 'Content-Type': 'text/csv', 'Content-Length': String(text.length) },
  });
}

function appWith(handler: (c: Context) => Response) {
  const app = new Hono();
  app.use('*', compressResponses());
  app.get('/x', handler);
  return app;
}

async function bodyBytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

/** Decoders of a whole body, or (`partial`) of what has been flushed so far. */
const decodeBrotli = (bytes: Buffer, partial: boolean) =>
  brotliDecompressSync(bytes, partial ? { finishFlush: constants.BROTLI_OPERATION_FLUSH } : {});
const decodeGzip = (bytes: Buffer, partial: boolean) =>
  gunzipSync(bytes, partial ? { finishFlush: constants.Z_SYNC_FLUSH } : {});

/** A CSV response whose `rest` is produced only once `release()` is called. */
function heldCsv(first: string, rest: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const encoder = new TextEncoder();
  const handler = () =>
    new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(encoder.encode(first));
          await released;
          controller.enqueue(encoder.encode(rest));
          controller.close();
        },
      }),
      { headers: { 'Content-Type': 'text/csv; charset=utf-8' } },
    );
  return { handler, release };
}

describe('compressResponses', () => {
  it.each([
    ['br', (bytes: Buffer) => brotliDecompressSync(bytes)],
    ['gzip', (bytes: Buffer) => gunzipSync(bytes)],
  ] as const)('sends JSON in %s that decodes to the same bytes', async (encoding, decode) => {
    const payload = { usage: Array.from({ length: 300 }, (_, i) => ({ traces: i })) };
    const app = appWith((c) => c.json(payload));
    const response = await app.request('/x', { headers: { 'Accept-Encoding': encoding } });
    expect(response.headers.get('Content-Encoding')).toBe(encoding);
    expect(response.headers.get('Vary')).toBe('Accept-Encoding');
    expect(response.headers.get('Content-Length')).toBeNull();
    const bytes = await bodyBytes(response);
    expect(bytes.length).toBeLessThan(JSON.stringify(payload).length / 3);
    expect(JSON.parse(decode(bytes).toString('utf8'))).toEqual(payload);
  });

  it.each([
    ['its first rows', ROWS, 'gzip, br', 'br', decodeBrotli],
    [
      'a small first chunk (the header)',
      'Time Bucket Start,Traces\r\n',
      'gzip',
      'gzip',
      decodeGzip,
    ],
  ] as const)(
    'keeps a streamed CSV streamed: %s arrive before the rest is produced',
    async (_name, firstPart, accept, encoding, decode) => {
      const { handler, release } = heldCsv(firstPart, ROWS);
      const response = await appWith(handler).request('/x', {
        headers: { 'Accept-Encoding': accept },
      });
      expect(response.headers.get('Content-Encoding')).toBe(encoding);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const chunks: Uint8Array[] = [];
      const first = await reader.read();
      expect(first.done).toBe(false);
      chunks.push(first.value as Uint8Array);
      expect(decode(Buffer.concat(chunks), true).toString('utf8')).toBe(firstPart);
      release();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        chunks.push(next.value);
      }
      expect(decode(Buffer.concat(chunks), false).toString('utf8')).toBe(firstPart + ROWS);
    },
  );

  it('streams a body ready past the first megabyte, the chunks read ahead first', async () => {
    const block = ROWS.repeat(6); // 66 KB: 24 blocks make 1.6 MB
    const blocks = Array.from({ length: 24 }, (_, i) => `${i},${block}`);
    const encoder = new TextEncoder();
    const app = appWith(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              blocks.forEach((text) => controller.enqueue(encoder.encode(text)));
              controller.close();
            },
          }),
          { headers: { 'Content-Type': 'text/csv' } },
        ),
    );
    const response = await app.request('/x', { headers: { 'Accept-Encoding': 'br' } });
    expect(response.headers.get('Content-Encoding')).toBe('br');
    const decoded = brotliDecompressSync(await bodyBytes(response)).toString('utf8');
    expect(decoded).toBe(blocks.join(''));
  });

  it.each<[string, Record<string, string>, () => Response, string]>([
    ['a client that accepts no encoding', {}, () => csv(ROWS), ROWS],
    [
      'server-sent events (compression would hold events back)',
      { 'Accept-Encoding': 'br' },
      () => new Response(ROWS, { headers: { 'Content-Type': 'text/event-stream' } }),
      ROWS,
    ],
    ['a small body', { 'Accept-Encoding': 'br' }, () => csv('ok'), 'ok'],
    [
      'a small JSON answer (no Content-Length: the body is read to learn its size)',
      { 'Accept-Encoding': 'br' },
      () => Response.json({ thread_id: 'a' }),
      '{"thread_id":"a"}',
    ],
    [
      'an image',
      { 'Accept-Encoding': 'br' },
      () => new Response(ROWS, { headers: { 'Content-Type': 'image/png' } }),
      ROWS,
    ],
  ])('leaves %s alone', async (_name, headers, handler, expected) => {
    const response = await appWith(handler).request('/x', { headers });
    expect(response.headers.get('Content-Encoding')).toBeNull();
    expect((await bodyBytes(response)).toString('utf8')).toBe(expected);
  });

  it('passes an already encoded body through as it is', async () => {
    const app = appWith(
      () =>
        new Response('precompressed', {
          headers: { 'Content-Type': 'text/javascript', 'Content-Encoding': 'br' },
        }),
    );
    const response = await app.request('/x', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('Content-Encoding')).toBe('br');
    expect((await bodyBytes(response)).toString('utf8')).toBe('precompressed');
  });
});

describe('chooseEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', undefined],
    [undefined, undefined],
  ])('%s -> %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});
