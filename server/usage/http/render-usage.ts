import {
  csvFilledColumns,
  usageCsvColumns,
  type Stride,
  type UsageCsvColumn,
  type UsageDimensions,
} from '@contracts/usage/usage-schema';
import { formatCsvCell } from '@contracts/usage/csv';
import type { DimensionCatalog } from '../model/dimension-catalog';
import type { UsageQueryPlan } from '../model/usage-plan';
import type { UsageMatrix } from '../model/usage-matrix';
import { toDimensions } from '../model/usage-rows';

/**
 * Response bytes written from a `UsageMatrix`: every piece that repeats (a bucket's times, a
 * dimension value's fields) is formatted once, by the same functions the JS reference uses
 * (`JSON.stringify`, `formatCsvCell`), then copied per record; a value's fields are kept with
 * its dimension catalog for later requests. So the output is byte for byte
 * `JSON.stringify(response)` / `formatCsvRow(cells)`, at the cost of three copies per record.
 * Rendering only: the matrix comes from `query/`.
 */

const iso = (ms: number) => new Date(ms).toISOString();
/** Longest `String(count)` of a trace count (a safe integer has at most 16 digits). */
export const COUNT_MAX_BYTES = 16;

/** Start and end (the next bucket's start, or the range's end) of every bucket of the plan. */
function bucketTimes({ grid }: UsageQueryPlan): { start: string; end: string }[] {
  return Array.from({ length: grid.count }, (_, k) => ({
    start: iso(grid.start(k)),
    end: iso(grid.end(k)),
  }));
}

function dimensionsOf(plan: UsageQueryPlan, matrix: UsageMatrix, value: number): UsageDimensions {
  const dimId = matrix.ids[value] ?? null;
  return toDimensions(
    plan.groupBy,
    { dimId, label: matrix.labels[value] ?? null },
    dimId === null ? undefined : matrix.catalog.workspaces?.get(dimId),
  );
}

/**
 * A rendering of a value's fields: JSON (traces, or LLM usage), or CSV cells without or with the
 * context columns.
 */
type Format = 'json' | 'llm-json' | 'csv' | 'csv-context';

/**
 * Per dimension catalog (a new object whenever its table changed) and format, each value's
 * rendered fields by catalog position, formatted the first time the value is written.
 */
export type FragmentCache = WeakMap<DimensionCatalog, Map<Format, Uint8Array[]>>;

/**
 * Each value's rendered fields as bytes (`format` names the rendering), taken from `cache` for
 * values of the catalog; values the dimension table lacks are formatted every time.
 */
export function valueFragments(
  cache: FragmentCache,
  matrix: Pick<UsageMatrix, 'catalog' | 'ids' | 'positions'>,
  format: Format,
  render: (value: number) => string,
): Uint8Array[] {
  const byFormat = cache.get(matrix.catalog) ?? new Map<Format, Uint8Array[]>();
  cache.set(matrix.catalog, byFormat);
  const fragments = byFormat.get(format) ?? [];
  byFormat.set(format, fragments);
  return matrix.ids.map((_, value) => {
    const position = matrix.positions[value] ?? -1;
    if (position < 0) return Buffer.from(render(value));
    return (fragments[position] ??= Buffer.from(render(value)));
  });
}

/** ASCII of '00' to '99', two bytes each. */
const DIGIT_PAIRS = Buffer.from(
  Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0')).join(''),
  'latin1',
);

/** Digits of an integer from 0 to 10^8 - 1: comparisons, no division. */
function smallDigits(n: number): number {
  if (n < 10_000) return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : 4;
  return n < 100_000 ? 5 : n < 1_000_000 ? 6 : n < 10_000_000 ? 7 : 8;
}

/**
 * Writes an integer from 0 to 2^31 - 1 as exactly `width` ASCII digits (zero-padded on the left),
 * two digits per int32 division; returns the position after them.
 */
export function writeDigits(out: Uint8Array, at: number, n: number, width: number): number {
  let position = at + width;
  let rest = n;
  while (rest >= 100) {
    const quotient = (rest / 100) | 0;
    const pair = (rest - quotient * 100) * 2;
    out[--position] = DIGIT_PAIRS[pair + 1] as number;
    out[--position] = DIGIT_PAIRS[pair] as number;
    rest = quotient;
  }
  if (rest >= 10) {
    out[--position] = DIGIT_PAIRS[rest * 2 + 1] as number;
    out[--position] = DIGIT_PAIRS[rest * 2] as number;
  } else {
    out[--position] = 0x30 + rest;
  }
  while (position > at) out[--position] = 0x30;
  return at + width;
}

/** Digits of a trace count: a non-negative integer (a safe integer: at most 16). */
export function digitsOf(count: number): number {
  if (count < 1e8) return smallDigits(count);
  return 8 + digitsOf(Math.floor(count / 1e8));
}

/**
 * Writes `String(count)` of a non-negative safe integer at `at` (ASCII digits, no call into the
 * encoder: this runs once per count written). Returns the position after it.
 */
export function writeCount(out: Uint8Array, at: number, count: number): number {
  if (count < 1e8) return writeDigits(out, at, count, smallDigits(count));
  const high = Math.floor(count / 1e8);
  return writeDigits(out, writeCount(out, at, high), count - high * 1e8, 8);
}

/** The whole JSON body (spec 2.1): `{"stride":…,"usage":[…]}` as UTF-8. */
function renderUsageJson(
  cache: FragmentCache,
  plan: UsageQueryPlan,
  matrix: UsageMatrix,
): Uint8Array<ArrayBuffer> {
  const stride: Stride = plan.grid.stride;
  const head = Buffer.from(`{"stride":${JSON.stringify(stride)},"usage":[`);
  const tail = Buffer.from(']}');
  // A record is `{"time_bucket":"…","dimensions":` (per bucket), `{…},"traces":` (per value),
  // the count and `}`; records are separated by commas.
  const buckets = bucketTimes(plan).map((times) =>
    Buffer.from(`{"time_bucket":"${times.start}","dimensions":`),
  );
  const values = valueFragments(
    cache,
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

/** Bytes per block the CSV renderer yields (a few hundred lines). */
const CSV_BLOCK_BYTES = 256 * 1024;

/**
 * The CSV data lines (spec 2.3) in blocks of whole CRLF-terminated lines, each a fresh buffer
 * (the consumer may keep it): `Time Bucket Start,Time Bucket End,` per bucket, the seven
 * dimension cells and the tier (only `group_by`'s filled, and its context with
 * `includeContext`) per value, then the count.
 */
function* renderUsageCsv(
  cache: FragmentCache,
  plan: UsageQueryPlan,
  matrix: UsageMatrix,
  includeContext: boolean,
  blockBytes = CSV_BLOCK_BYTES,
): Generator<Buffer> {
  const own: Partial<Record<UsageCsvColumn, keyof UsageDimensions>> = csvFilledColumns(
    plan.groupBy,
    { includeContext },
  );
  const buckets = bucketTimes(plan).map((times) => Buffer.from(`${times.start},${times.end},`));
  const format = includeContext ? 'csv-context' : 'csv';
  const values = valueFragments(cache, matrix, format, (value) => {
    const dims = dimensionsOf(plan, matrix, value);
    const cells = usageCsvColumns(plan.groupBy)
      .slice(2, -1)
      .map((column) => {
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

export interface UsageRenderer {
  /** The JSON body (spec 2.1) of a plan's matrix. */
  json(plan: UsageQueryPlan, matrix: UsageMatrix): Uint8Array<ArrayBuffer>;
  /**
   * The CSV data lines (spec 2.3, no header) of a plan's matrix, in blocks of whole lines;
   * `includeContext` fills the group's context columns too.
   */
  csv(
    plan: UsageQueryPlan,
    matrix: UsageMatrix,
    options?: { includeContext?: boolean },
  ): Generator<Buffer>;
}

/**
 * The usage renderers, with the formatted fields of dimension values kept between requests (one
 * cache per renderer, dropped with the catalog it was made from).
 */
export function createUsageRenderer(): UsageRenderer {
  const cache: FragmentCache = new WeakMap();
  return {
    json: (plan, matrix) => renderUsageJson(cache, plan, matrix),
    csv: (plan, matrix, options) =>
      renderUsageCsv(cache, plan, matrix, options?.includeContext ?? false),
  };
}
