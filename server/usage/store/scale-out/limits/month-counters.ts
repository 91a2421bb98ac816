import type { Pool, PoolClient } from 'pg';
import type { TraceTier } from '@contracts/usage/limit-period';
import type { LimitType } from '@contracts/usage/usage-limits';

/** A (workspace, UTC month) whose traces one counter row counts; `month` is its first day. */
export interface MonthKey {
  workspaceId: string;
  month: string;
}

/**
 * Traces already stored for these (workspace, month) pairs before their counter row existed
 * (the seed, traces billed before counters did): read from ClickHouse once per pair.
 */
export type MonthBaseline = (keys: readonly MonthKey[]) => Promise<Map<string, Counts>>;

export interface Counts {
  traces: number;
  longlived: number;
}

/** A run id to claim, as the counters and the limits weigh it. */
export interface CountedRow {
  runId: string;
  workspaceId: string;
  day: string;
  tier: TraceTier;
  /** The project of a root run of `ingestRuns`: weighed against limits. Absent: never refused. */
  limitedProject?: string;
  /** Its project's and user's ids: counted for, and held to, their limits. */
  projectId?: string | null;
  userId?: string | null;
}

export const keyOf = (key: MonthKey) => `${key.workspaceId}|${key.month}`;
export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
export const NO_BASELINE: MonthBaseline = async () => new Map();

export const COUNTER_TYPES: Record<LimitType, keyof Counts> = {
  monthly_traces: 'traces',
  monthly_longlived_traces: 'longlived',
};

export function distinctKeys(rows: readonly { workspaceId: string; day: string }[]): MonthKey[] {
  const keys = new Map<string, MonthKey>();
  for (const row of rows) {
    const key = { workspaceId: row.workspaceId, month: monthOf(row.day) };
    keys.set(keyOf(key), key);
  }
  return [...keys.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
}

const unnestKeys = (keys: readonly MonthKey[]) => [
  keys.map((key) => key.workspaceId),
  keys.map((key) => key.month),
];

/**
 * Creates the missing counter rows of `keys`, each from its baseline. Done before the claim's
 * transaction and outside it: the first writer to insert a row wins, and since every claim of a
 * (workspace, month) goes through its row once it exists, a baseline read before the row existed
 * holds no trace a counter also counts.
 */
export async function ensureCounters(
  pool: Pool,
  keys: readonly MonthKey[],
  baseline: MonthBaseline,
): Promise<void> {
  if (keys.length === 0) return;
  const present = await pool.query<{ workspace_id: string; month: string }>(
    `SELECT workspace_id::text, to_char(month, 'YYYY-MM-DD') AS month FROM usage.limit_counters
     WHERE (workspace_id, month) IN (SELECT * FROM unnest($1::uuid[], $2::date[]))`,
    unnestKeys(keys),
  );
  const have = new Set(present.rows.map((row) => `${row.workspace_id}|${row.month}`));
  const missing = keys.filter((key) => !have.has(keyOf(key)));
  if (missing.length === 0) return;
  const counts = await baseline(missing);
  await pool.query(
    `INSERT INTO usage.limit_counters
     SELECT * FROM unnest($1::uuid[], $2::date[], $3::bigint[], $4::bigint[])
     ON CONFLICT DO NOTHING`,
    [
      ...unnestKeys(missing),
      missing.map((key) => String(counts.get(keyOf(key))?.traces ?? 0)),
      missing.map((key) => String(counts.get(keyOf(key))?.longlived ?? 0)),
    ],
  );
}

/** Locks the counter rows of `keys` (in key order: no deadlock between claims) and reads them. */
export async function lockCounters(
  client: PoolClient,
  keys: readonly MonthKey[],
): Promise<Map<string, Counts>> {
  const result = await client.query<{
    workspace_id: string;
    month: string;
    traces: string;
    longlived: string;
  }>(
    `SELECT workspace_id::text, to_char(month, 'YYYY-MM-DD') AS month, traces, longlived
     FROM usage.limit_counters
     WHERE (workspace_id, month) IN (SELECT * FROM unnest($1::uuid[], $2::date[]))
     ORDER BY workspace_id, month FOR UPDATE`,
    unnestKeys(keys),
  );
  return new Map(
    result.rows.map((row) => [
      `${row.workspace_id}|${row.month}`,
      { traces: Number(row.traces), longlived: Number(row.longlived) },
    ]),
  );
}

export async function addToCounters(
  client: PoolClient,
  rows: readonly { workspaceId: string; day: string; tier: TraceTier }[],
  sign: 1 | -1,
): Promise<void> {
  const deltas = new Map<string, MonthKey & Counts>();
  for (const row of rows) {
    const key = { workspaceId: row.workspaceId, month: monthOf(row.day) };
    const entry = deltas.get(keyOf(key)) ?? { ...key, traces: 0, longlived: 0 };
    entry.traces += sign;
    if (row.tier === 'long') entry.longlived += sign;
    deltas.set(keyOf(key), entry);
  }
  if (deltas.size === 0) return;
  const list = [...deltas.values()];
  await client.query(
    `UPDATE usage.limit_counters c
     SET traces = c.traces + d.traces, longlived = c.longlived + d.longlived
     FROM unnest($1::uuid[], $2::date[], $3::bigint[], $4::bigint[])
       AS d (workspace_id, month, traces, longlived)
     WHERE c.workspace_id = d.workspace_id AND c.month = d.month`,
    [
      ...unnestKeys(list),
      list.map((entry) => String(entry.traces)),
      list.map((entry) => String(entry.longlived)),
    ],
  );
}

/**
 * Traces counted against each limit type in the month starting `month.startMs`, per workspace:
 * the counter row when there is one (claims under way included), else the baseline.
 */
export async function readMonthUsage(
  pool: Pool,
  workspaceIds: readonly string[],
  monthStart: string,
  baseline: MonthBaseline,
): Promise<Map<string, Record<LimitType, number>>> {
  const usage = new Map<string, Record<LimitType, number>>();
  if (workspaceIds.length === 0) return usage;
  const result = await pool.query<{ workspace_id: string; traces: string; longlived: string }>(
    `SELECT workspace_id::text, traces, longlived FROM usage.limit_counters
     WHERE workspace_id = ANY($1::uuid[]) AND month = $2::date`,
    [workspaceIds, monthStart],
  );
  const counted = new Map(result.rows.map((row) => [row.workspace_id, row]));
  const missing = workspaceIds
    .filter((id) => !counted.has(id))
    .map((workspaceId) => ({ workspaceId, month: monthStart }));
  const base = missing.length > 0 ? await baseline(missing) : new Map<string, Counts>();
  for (const id of workspaceIds) {
    const row = counted.get(id);
    const counts = row
      ? { traces: Number(row.traces), longlived: Number(row.longlived) }
      : (base.get(keyOf({ workspaceId: id, month: monthStart })) ?? { traces: 0, longlived: 0 });
    usage.set(id, {
      monthly_traces: counts.traces,
      monthly_longlived_traces: counts.longlived,
    });
  }
  return usage;
}
