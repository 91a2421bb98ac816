import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseReader, type ClickHouseReader } from './reader';

const TEST_CLICKHOUSE_URL = process.env.TEST_CLICKHOUSE_URL;

describe.skipIf(!TEST_CLICKHOUSE_URL)(
  'the ClickHouse reader against a real server (skipped when TEST_CLICKHOUSE_URL is unset)',
  () => {
    let reader: ClickHouseReader;
    beforeAll(() => {
      reader = createClickHouseReader({ url: TEST_CLICKHOUSE_URL ?? '', database: 'system' });
    });
    afterAll(() => reader?.close());

    it('answers a SELECT as rows of cells, and an empty answer as no rows', async () => {
      expect(await reader.rows('SELECT number, toString(number * 2) FROM numbers(3)')).toEqual([
        ['0', '0'],
        ['1', '2'],
        ['2', '4'],
      ]);
      expect(await reader.rows('SELECT 1 FROM numbers(3) WHERE number > 5')).toEqual([]);
    });

    it('rejects a statement the server refuses, with its message', async () => {
      await expect(reader.rows('SELECT no_such_column FROM numbers(1)')).rejects.toThrow(
        /no_such_column/,
      );
    });

    it('rejects a statement that fails after the server began to answer (HTTP 200)', async () => {
      // Small blocks, so the first rows are sent before the failing one is computed.
      await expect(
        reader.rows(
          `SELECT number, throwIf(number = 2000000) FROM system.numbers LIMIT 3000000
           SETTINGS max_block_size = 1000`,
        ),
      ).rejects.toThrow(/HTTP 200.*throwIf/s);
    });
  },
);

describe('the ClickHouse reader', () => {
  it('sends a read again when the server had closed the kept-alive socket it reused', async () => {
    const answered = new WeakSet<object>();
    let requests = 0;
    // Answers the first request of each connection, drops the connection at the second.
    const server = http.createServer((request, response) => {
      requests += 1;
      if (answered.has(request.socket)) {
        request.socket.destroy();
        return;
      }
      answered.add(request.socket);
      response.end('1\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const reader = createClickHouseReader({ url: `http://127.0.0.1:${port}`, database: 'x' });
    try {
      expect(await reader.rows('SELECT 1')).toEqual([['1']]);
      expect(await reader.rows('SELECT 1')).toEqual([['1']]);
      expect(requests).toBe(3);
    } finally {
      reader.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
