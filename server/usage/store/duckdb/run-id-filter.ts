import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Which run ids are already billed, as a set of 64-bit fingerprints (DuckDB's `hash(run_id)`)
 * kept in memory: 8 bytes a trace in an open-addressing table, half full at most.
 *
 * Why not a unique index on `traces.run_id`: DuckDB rewrites a whole ART index at every
 * checkpoint, and with 2 M traces that took 0.4 to 0.6 s (against 30 to 70 ms without the
 * index), every ~70,000 ingested runs; each batch caught behind it waited that long, which was
 * the p99 of the ingestion benchmark. It also made each 1,000-run INSERT 3 to 4 times dearer.
 *
 * A fingerprint can collide, so `has` means "maybe": the caller checks those ids against
 * `traces` (a scan, only for resent runs). Absent means new for sure.
 */
export class RunIdFilter {
  // Pairs (high, low) of 32 bits; (0, 0) marks an empty slot, so a (0, 0) hash is stored as (0, 1).
  private slots: Uint32Array;
  private mask: number;
  size = 0;

  constructor(expected = 0) {
    let capacity = 1 << 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Uint32Array(capacity * 2);
    this.mask = capacity - 1;
  }

  has(high: number, low: number): boolean {
    const [h, l] = nonZero(high, low);
    return !this.isEmpty(this.slotOf(h, l));
  }

  add(high: number, low: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    const [h, l] = nonZero(high, low);
    const slot = this.slotOf(h, l);
    if (!this.isEmpty(slot)) return;
    this.slots[2 * slot] = h;
    this.slots[2 * slot + 1] = l;
    this.size += 1;
  }

  /**
   * The slot holding (h, l), or the empty slot where it would go: linear probing from the low
   * half (DuckDB's hash is already mixed, so its low bits spread keys evenly).
   */
  private slotOf(h: number, l: number): number {
    for (let i = l & this.mask; ; i = (i + 1) & this.mask) {
      const sh = this.slots[2 * i];
      const sl = this.slots[2 * i + 1];
      if ((sh === 0 && sl === 0) || (sh === h && sl === l)) return i;
    }
  }

  private isEmpty(slot: number): boolean {
    return this.slots[2 * slot] === 0 && this.slots[2 * slot + 1] === 0;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.mask = this.slots.length / 2 - 1;
    this.size = 0;
    for (let i = 0; i < old.length; i += 2) {
      const h = old[i] ?? 0;
      const l = old[i + 1] ?? 0;
      if (h !== 0 || l !== 0) this.add(h, l);
    }
  }
}

const nonZero = (h: number, l: number): [number, number] => (h === 0 && l === 0 ? [0, 1] : [h, l]);

/** A run id's fingerprint as two unsigned 32-bit halves. */
export type Fingerprint = readonly [high: number, low: number];

const HALVES = '(h >> 32)::UINTEGER, (h & 4294967295)::UINTEGER';

/** Every billed run id's fingerprint, read column-wise (≈ 0.3 s a million traces here). */
export async function loadRunIdFilter(connection: DuckDBConnection): Promise<RunIdFilter> {
  const count = await connection.runAndReadAll('SELECT count(*)::DOUBLE FROM traces');
  const filter = new RunIdFilter(Number(count.getRowsJS()[0]?.[0] ?? 0));
  const result = await connection.stream(
    `SELECT ${HALVES} FROM (SELECT hash(run_id) AS h FROM traces)`,
  );
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const high = chunk.getColumnVector(0);
    const low = chunk.getColumnVector(1);
    for (let i = 0; i < chunk.rowCount; i += 1) {
      filter.add(Number(high.getItem(i)), Number(low.getItem(i)));
    }
  }
  return filter;
}

/** The fingerprints of `runIds`, in their order (the same hash as the stored ones). */
async function fingerprintsOf(
  connection: DuckDBConnection,
  runIds: readonly string[],
): Promise<Fingerprint[]> {
  if (runIds.length === 0) return [];
  // Comma-joined ids (a UUID holds no comma): one parameter whatever the batch size.
  const reader = await connection.runAndReadAll(
    `SELECT ${HALVES} FROM (SELECT hash(unnest(string_split($1, ','))::UUID) AS h)`,
    [runIds.join(',')],
  );
  return reader.getRowsJS().map(([high, low]) => [Number(high), Number(low)] as const);
}

/** Which of `runIds` are stored in `traces` (exact; reads the whole run_id column). */
async function storedRunIds(
  connection: DuckDBConnection,
  runIds: readonly string[],
): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const reader = await connection.runAndReadAll(
    `SELECT run_id::VARCHAR FROM traces
     WHERE run_id IN (SELECT unnest(string_split($1, ','))::UUID)`,
    [runIds.join(',')],
  );
  return new Set(reader.getRowsJS().map(([runId]) => String(runId)));
}

/**
 * The ids of `runIds` (lower-case, distinct) not billed yet, and `remember`, to call once the
 * transaction that stores them committed (a rolled-back write must not mark them billed).
 */
export async function selectUnbilled(
  connection: DuckDBConnection,
  filter: RunIdFilter,
  runIds: readonly string[],
): Promise<{ unbilled: Set<string>; remember: () => void }> {
  const prints = await fingerprintsOf(connection, runIds);
  const suspects = runIds.filter((_, i) => {
    const [high, low] = prints[i] ?? [0, 0];
    return filter.has(high, low);
  });
  const stored = await storedRunIds(connection, suspects);
  const unbilled = new Set<string>();
  const fresh: Fingerprint[] = [];
  runIds.forEach((runId, i) => {
    if (stored.has(runId)) return;
    unbilled.add(runId);
    const print = prints[i];
    if (print) fresh.push(print);
  });
  return {
    unbilled,
    remember: () => fresh.forEach(([high, low]) => filter.add(high, low)),
  };
}
