import type { Pool, PoolClient } from 'pg';
import { monthOf } from './month-counters';

/** The scopes a target counter counts: the ones project and user limits hold. */
export type TargetScope = 'project' | 'user';

/**
 * A project or a user in one UTC month (`month` is its first day). A user's counter holds their
 * traces in every workspace, as the DuckDB backend counts a user limit's traces from its rollup.
 */
export interface TargetKey {
  scope: TargetScope;
  targetId: string;
  month: string;
}

/**
 * Traces already stored for these targets before their counter row existed (the seed, traces
 * billed before target counters did), by `targetKeyOf`: read from ClickHouse once per key.
 */
export type TargetBaseline = (keys: readonly TargetKey[]) => Promise<Map<string, number>>;

export const NO_TARGET_BASELINE: TargetBaseline = async () => new Map();

export const targetKeyOf = (key: TargetKey) => `${key.scope}|${key.targetId}|${key.month}`;

/** A billed run as the target counters weigh it: its project and user, when known. */
export interface TargetRow {
  day: string;
  projectId?: string | null;
  userId?: string | null;
}

/** The project and user counter keys of one run (none for a target it lacks). */
export function targetsOf(row: TargetRow): TargetKey[] {
  const month = monthOf(row.day);
  const keys: TargetKey[] = [];
  for (const [scope, id] of [
    ['project', row.projectId],
    ['user', row.userId],
  ] as const) {
    if (id) keys.push({ scope, targetId: id.toLowerCase(), month });
  }
  return keys;
}

/** The distinct target keys of `rows`, in lock order. */
export function distinctTargets(rows: readonly TargetRow[]): TargetKey[] {
  const keys = new Map<string, TargetKey>();
  for (const row of rows) for (const key of targetsOf(row)) keys.set(targetKeyOf(key), key);
  return [...keys.values()].sort((a, b) => targetKeyOf(a).localeCompare(targetKeyOf(b)));
}

const unnestTargets = (keys: readonly TargetKey[]) => [
  keys.map((key) => key.scope),
  keys.map((key) => key.targetId),
  keys.map((key) => key.month),
];

const TARGETS_SQL = `(scope, target_id, month) IN
  (SELECT * FROM unnest($1::text[], $2::uuid[], $3::date[]))`;
const KEY_SQL = `scope || '|' || target_id::text || '|' || to_char(month, 'YYYY-MM-DD') AS key`;

/**
 * Creates the missing target counter rows of `keys`, each from its baseline: outside the claim's
 * transaction, as `ensureCounters` does for the workspace rows and for the same reason (every
 * claim of a target goes through its row once it exists, so a baseline read before holds no
 * trace a counter also counts).
 */
export async function ensureTargetCounters(
  pool: Pool,
  keys: readonly TargetKey[],
  baseline: TargetBaseline,
): Promise<void> {
  if (keys.length === 0) return;
  const present = await pool.query<{ key: string }>(
    `SELECT ${KEY_SQL} FROM usage.limit_target_counters WHERE ${TARGETS_SQL}`,
    unnestTargets(keys),
  );
  const have = new Set(present.rows.map((row) => row.key));
  const missing = keys.filter((key) => !have.has(targetKeyOf(key)));
  if (missing.length === 0) return;
  const counts = await baseline(missing);
  await pool.query(
    `INSERT INTO usage.limit_target_counters
     SELECT * FROM unnest($1::text[], $2::uuid[], $3::date[], $4::bigint[])
     ON CONFLICT DO NOTHING`,
    [...unnestTargets(missing), missing.map((key) => String(counts.get(targetKeyOf(key)) ?? 0))],
  );
}

/**
 * Locks the target counter rows of `keys` and reads them. Taken after the workspace rows of the
 * same claim (`lockCounters`), in key order: every claim and release locks in that one order, so
 * two claims of one user from different workspaces take turns here without a deadlock.
 */
export async function lockTargetCounters(
  client: PoolClient,
  keys: readonly TargetKey[],
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const result = await client.query<{ key: string; traces: string }>(
    `SELECT ${KEY_SQL}, traces FROM usage.limit_target_counters WHERE ${TARGETS_SQL}
     ORDER BY scope, target_id, month FOR UPDATE`,
    unnestTargets(keys),
  );
  return new Map(result.rows.map((row) => [row.key, Number(row.traces)]));
}

/** Adds (or, for released claims, takes back) one trace per run to its project and user. */
export async function addToTargetCounters(
  client: PoolClient,
  rows: readonly TargetRow[],
  sign: 1 | -1,
): Promise<void> {
  const deltas = new Map<string, TargetKey & { traces: number }>();
  for (const row of rows) {
    for (const key of targetsOf(row)) {
      const entry = deltas.get(targetKeyOf(key)) ?? { ...key, traces: 0 };
      entry.traces += sign;
      deltas.set(targetKeyOf(key), entry);
    }
  }
  if (deltas.size === 0) return;
  const list = [...deltas.values()];
  await client.query(
    `UPDATE usage.limit_target_counters c SET traces = c.traces + d.traces
     FROM unnest($1::text[], $2::uuid[], $3::date[], $4::bigint[])
       AS d (scope, target_id, month, traces)
     WHERE c.scope = d.scope AND c.target_id = d.target_id AND c.month = d.month`,
    [...unnestTargets(list), list.map((entry) => String(entry.traces))],
  );
}

/**
 * Traces counted for each of `keys` (claims under way included), by `targetKeyOf`: the counter
 * row when there is one, else the baseline.
 */
export async function readTargetUsage(
  pool: Pool,
  keys: readonly TargetKey[],
  baseline: TargetBaseline,
): Promise<Map<string, number>> {
  const usage = new Map<string, number>();
  if (keys.length === 0) return usage;
  const result = await pool.query<{ key: string; traces: string }>(
    `SELECT ${KEY_SQL}, traces FROM usage.limit_target_counters WHERE ${TARGETS_SQL}`,
    unnestTargets(keys),
  );
  for (const row of result.rows) usage.set(row.key, Number(row.traces));
  const missing = keys.filter((key) => !usage.has(targetKeyOf(key)));
  const base = missing.length > 0 ? await baseline(missing) : new Map<string, number>();
  for (const key of missing) usage.set(targetKeyOf(key), base.get(targetKeyOf(key)) ?? 0);
  return usage;
}
