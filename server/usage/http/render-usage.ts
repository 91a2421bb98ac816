import {
  CSV_DIMENSION_COLUMNS,
  USAGE_CSV_COLUMNS,
  type Stride,
  type UsageCsvColumn,
  type UsageDimensions,
} from '@contracts/usage/usage-schema';
import { formatCsvCell } from '@contracts/usage/csv';
import { bucketEnd, bucketStarts } from '@contracts/usage/stride';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DimensionCatalogs } from '../store/dimension-catalog';
import { queryUsageMatrix, type UsageMatrix } from '../store/usage-matrix';
import { inSnapshot } from '../store/usage-store';
import { toDimensions } from '../store/usage-rows';
import type { UsageQueryPlan } from '../store/usage-query-sql';

/**
 * Response bytes written from a `UsageMatrix`: every piece that repeats (a bucket's times, a
 * dimension value's fields) is formatted once, by the same functions the JS reference uses
 * (`JSON.stringify`, `formatCsvCell`), then copied per record; a value's fields are kept with
 * its dimension catalog for later requests. So the output is byte for byte
 * `JSON.stringify(response)` / `formatCsvRow(cells)`, at the cost of three copies per record.
 */

const iso = (ms: number) => new Date(ms).toISOString();
/** Longest `String(count)` of a trace count (a safe integer has at most 16 digits). */
const COUNT_MAX_BYTES = 16;

/** Start and end (the next bucket's start, or the range's end) of every bucket of the plan. */
function bucketTimes(plan: UsageQueryPlan): { start: string; end: string }[] {
  return bucketStarts(plan.startMs, plan.endMs, plan.stride).map((start) => ({
    start: iso(start),
    end: iso(bucketEnd(start, plan.endMs, plan.stride)),
  }));
}

function dimensionsOf(plan: UsageQueryPlan, matrix: UsageMatrix, value: number): UsageDimensions {
  return toDimensions(plan.groupBy, {
    dimId: matrix.ids[value] ?? null,
    label: matrix.labels[value] ?? null,
  });
}

/**
 * Each value's rendered fields as bytes (`format` names the rendering), formatted once per
 * dimension value and kept in the catalog for the next request; values the dimension table
 * lacks are formatted every time.
 */
function valueFragments(
  matrix: UsageMatrix,
  format: 'json' | 'csv',
  render: (value: number) => string,
): Uint8Array[] {
  const cache = matrix.catalog.fragments.get(format) ?? [];
  matrix.catalog.fragments.set(format, cache);
  return matrix.ids.map((_, value) => {
    const position = matrix.positions[value] ?? -1;
    if (position < 0) return Buffer.from(render(value));
    return (cache[position] ??= Buffer.from(render(value)));
  });
}

/** Digits of a trace count: a non-negative integer (a safe integer: at most 16). */
function digitsOf(count: number): number {
  let digits = 1;
  for (let rest = count; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  return digits;
}

/**
 * Writes `String(count)` of a non-negative integer at `at` (ASCII digits, no call into the
 * encoder: this runs once per record). Returns the position after it.
 */
function writeCount(out: Uint8Array, at: number, count: number): number {
  const end = at + digitsOf(count);
  let rest = count;
  let position = end;
  do {
    out[--position] = 0x30 + (rest % 10);
    rest = Math.floor(rest / 10);
  } while (rest > 0);
  return end;
}

/** The whole JSON body (spec 2.1): `{"stride":…,"usage":[…]}` as UTF-8. */
export function renderUsageJson(
  plan: UsageQueryPlan,
  matrix: UsageMatrix,
): Uint8Array<ArrayBuffer> {
  const head = Buffer.from(`{"stride":${JSON.stringify(plan.stride satisfies Stride)},"usage":[`);
  const tail = Buffer.from(']}');
  // A record is `{"time_bucket":"…","dimensions":` (per bucket), `{…},"traces":` (per value),
  // the count and `}`; records are separated by commas.
  const buckets = bucketTimes(plan).map((times) =>
    Buffer.from(`{"time_bucket":"${times.start}","dimensions":`),
  );
  const values = valueFragments(
    matrix,
    'json',
    (value) => `${JSON.stringify(dimensionsOf(plan, matrix, value))},"traces":`,
  );
  const { bucketCount, counts } = matrix;
  let records = 0;
  let size = head.length + tail.length;
  for (let k = 0; k < bucketCount; k += 1) {
    const bucket = (buckets[k] as Buffer).length;
    for (let value = 0; value < values.length; value += 1) {
      const count = counts[value * bucketCount + k] as number;
      if (count <= 0) continue;
      records += 1;
      size += bucket + (values[value] as Uint8Array).length + digitsOf(count) + 1;
    }
  }
  size += Math.max(0, records - 1); // the commas between records
  const out = Buffer.allocUnsafe(size);
  out.set(head, 0);
  let at = head.length;
  for (let k = 0; k < bucketCount; k += 1) {
    const bucket = buckets[k] as Buffer;
    for (let value = 0; value < values.length; value += 1) {
      const count = counts[value * bucketCount + k] as number;
      if (count <= 0) continue;
      if (at > head.length) out[at++] = 0x2c; // ,
      out.set(bucket, at);
      at += bucket.length;
      const fields = values[value] as Uint8Array;
      out.set(fields, at);
      at += fields.length;
      at = writeCount(out, at, count);
      out[at++] = 0x7d; // }
    }
  }
  out.set(tail, at);
  return out;
}

/**
 * The JSON endpoint's answer to a plan: the dimension catalog and the facts read in one snapshot,
 * then the body written.
 */
export function queryUsageJson(
  connection: DuckDBConnection,
  plan: UsageQueryPlan,
  catalogs: DimensionCatalogs,
): Promise<Uint8Array<ArrayBuffer>> {
  return inSnapshot(connection, async () => {
    const catalog = await catalogs(connection, plan.groupBy);
    return renderUsageJson(plan, await queryUsageMatrix(connection, plan, catalog));
  });
}

/** Bytes per block the CSV renderer yields (a few hundred lines). */
const CSV_BLOCK_BYTES = 256 * 1024;

/**
 * The CSV data lines (spec 2.3) in blocks of whole CRLF-terminated lines, each a fresh buffer
 * (the consumer may keep it): `Time Bucket Start,Time Bucket End,` per bucket, the seven
 * dimension cells (only `group_by`'s filled) per value, then the count.
 */
export function* renderUsageCsv(
  plan: UsageQueryPlan,
  matrix: UsageMatrix,
  blockBytes = CSV_BLOCK_BYTES,
): Generator<Buffer> {
  const own: Partial<Record<UsageCsvColumn, keyof UsageDimensions>> =
    CSV_DIMENSION_COLUMNS[plan.groupBy];
  const buckets = bucketTimes(plan).map((times) => Buffer.from(`${times.start},${times.end},`));
  const values = valueFragments(matrix, 'csv', (value) => {
    const dims = dimensionsOf(plan, matrix, value);
    const cells = USAGE_CSV_COLUMNS.slice(2, 9).map((column) => {
      const field = own[column];
      return formatCsvCell(field ? dims[field] : undefined);
    });
    return `${cells.join(',')},`;
  });
  const { bucketCount, counts } = matrix;
  let block = Buffer.allocUnsafe(blockBytes);
  let at = 0;
  for (let k = 0; k < bucketCount; k += 1) {
    const bucket = buckets[k] as Buffer;
    for (let value = 0; value < values.length; value += 1) {
      const count = counts[value * bucketCount + k] ?? 0;
      if (count <= 0) continue;
      const fields = values[value] as Uint8Array;
      const line = bucket.length + fields.length + COUNT_MAX_BYTES + 2;
      if (at + line > block.length) {
        if (at > 0) yield block.subarray(0, at);
        block = Buffer.allocUnsafe(Math.max(blockBytes, line));
        at = 0;
      }
      block.set(bucket, at);
      at += bucket.length;
      block.set(fields, at);
      at += fields.length;
      at = writeCount(block, at, count);
      block[at++] = 0x0d;
      block[at++] = 0x0a;
    }
  }
  if (at > 0) yield block.subarray(0, at);
}
