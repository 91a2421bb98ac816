import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  BENCHMARKS_MD,
  readBenchmarks,
  renderBenchmarksDoc,
  renderTable,
  TABLE_END,
  TABLE_START,
  type Benchmark,
} from './render-benchmarks';

const entry = (overrides: Partial<Benchmark> = {}): Benchmark => ({
  what: 'Usage API, 1 year by user',
  command: 'npm run bench:usage -- --backend duckdb|clickhouse',
  result: 'p50 34 ms',
  target: '≤ 50 ms',
  machine: '2 cores',
  date: '2026-01-05',
  ...overrides,
});

describe('renderTable', () => {
  it('writes one row per measurement, in order, under the six columns', () => {
    const table = renderTable([entry({ what: 'first' }), entry({ what: 'second' })]).split('\n');
    expect(table[0]).toBe('| What | Command | Result | Target | Machine | Date |');
    expect(table).toHaveLength(4);
    expect(table[2]).toMatch(/^\| first \|/);
    expect(table[3]).toMatch(/^\| second \|/);
  });

  it('keeps a pipe inside a cell from splitting it', () => {
    const row = renderTable([entry()]).split('\n')[2] ?? '';
    expect(row).toContain('`npm run bench:usage -- --backend duckdb\\|clickhouse`');
    expect(row.split(/(?<!\\)\|/)).toHaveLength(8);
  });
});

describe('docs/benchmarks.md', () => {
  it('holds the table rendered from docs/benchmarks.json (re-render it after editing the figures)', async () => {
    const current = await readFile(BENCHMARKS_MD, 'utf8');
    const entries = await readBenchmarks();
    expect(await renderBenchmarksDoc(current, entries)).toBe(current);
  });

  it('refuses a document without its markers', async () => {
    await expect(renderBenchmarksDoc('# Benchmarks\n', [entry()])).rejects.toThrow(TABLE_START);
    await expect(
      renderBenchmarksDoc(`${TABLE_END}\n${TABLE_START}\n`, [entry()]),
    ).rejects.toThrow();
  });
});
