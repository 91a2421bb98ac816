import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ADMIN, useTestServer, usageUrl } from './test-server';

const server = useTestServer();

/** A raw HTTP GET (fetch would decode the body itself): status, headers, body bytes, chunks. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
    chunks: number;
  }>((resolve, reject) => {
    request(url, { headers }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () =>
        resolve({ headers: response.headers, body: Buffer.concat(parts), chunks: parts.length }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('compressed usage API responses', () => {
  const range = { start: '2026-01-05T00:00:00Z', end: '2026-03-15T00:00:00Z', groupBy: 'user' };

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)(
    'the CSV export in %s: same bytes once decoded, sent whole with its length (all ready at once)',
    async (encoding, decode) => {
      const url = usageUrl(server.baseUrl, { ...range, export: true });
      const plain = await rawGet(url, { ...ADMIN, 'accept-encoding': 'identity' });
      const packed = await rawGet(url, { ...ADMIN, 'accept-encoding': encoding });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(packed.headers['content-encoding']).toBe(encoding);
      // This export's rows (73 KB) are all rendered before the response starts: compressed in
      // one call. Longer ones stay streamed past the first megabyte (compress.test.ts).
      expect(packed.headers['transfer-encoding']).toBeUndefined();
      expect(packed.headers['content-length']).toBe(String(packed.body.length));
      expect(packed.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(plain.body.length).toBeGreaterThan(10_000);
      expect(packed.body.length).toBeLessThan(plain.body.length / 4);
      expect(decode(packed.body).equals(plain.body)).toBe(true);
    },
  );

  it('the JSON usage response in brotli decodes to the same document', async () => {
    const url = usageUrl(server.baseUrl, range);
    const plain = await rawGet(url, { ...ADMIN, 'accept-encoding': 'identity' });
    const packed = await rawGet(url, { ...ADMIN, 'accept-encoding': 'gzip, deflate, br' });
    expect(packed.headers['content-encoding']).toBe('br');
    expect(packed.headers.vary).toContain('Accept-Encoding');
    expect(JSON.parse(brotliDecompressSync(packed.body).toString('utf8'))).toEqual(
      JSON.parse(plain.body.toString('utf8')),
    );
  });
});
