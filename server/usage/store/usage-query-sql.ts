import {
  USAGE_CSV_COLUMNS,
  type GroupBy,
  type Stride,
  type UsageCsvColumn,
} from '@/contracts/usage';
import { bucketOrigin, strideMs } from '@/lib/usage/stride';
import { PERIOD_DAYS } from './cumulative-rollup';
import { planRange } from './time-segments';

/** A validated, authorised usage query: `workspaceIds` are already limited to readable ones. */
export interface UsageQueryPlan {
  startMs: number;
  endMs: number;
  /** No data before this instant (the cloud floor), or null. */
  floorMs: number | null;
  workspaceIds: readonly string[];
  groupBy: GroupBy;
  stride: Stride;
}

/** A statement and its bound parameters. */
export interface BoundSql {
  sql: string;
  values: (string | number)[];
}

const DAY_MS = 86_400_000;

/**
 * Per group_by: the trace column holding the dimension id, where its label comes from, and
 * the JSON keys / CSV columns of id and label (spec 2.1 and 2.3; `api_key` shows no id).
 */
const DIMENSIONS = {
  workspace: {
    column: 'workspace_id',
    table: 'workspaces',
    label: 'display_name',
    json: { id: 'workspace_id', label: 'workspace_name' },
    csv: { id: 'Workspace ID', label: 'Workspace Name' },
  },
  project: {
    column: 'project_id',
    table: 'projects',
    label: 'name',
    json: { id: 'project_id', label: 'project_name' },
    csv: { id: 'Project ID', label: 'Project Name' },
  },
  user: {
    column: 'user_id',
    table: 'users',
    label: 'email',
    json: { id: 'user_id', label: 'user_email' },
    csv: { id: 'User ID', label: 'User Email' },
  },
  api_key: {
    column: 'api_key_id',
    table: 'api_keys',
    label: 'short_key',
    json: { id: null, label: 'api_key_short_key' },
    csv: { id: null, label: 'API Key Short Key' },
  },
} as const satisfies Record<
  GroupBy,
  {
    column: string;
    table: string;
    label: string;
    json: { id: string | null; label: string };
    csv: { id: UsageCsvColumn | null; label: UsageCsvColumn };
  }
>;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * `JSON.stringify(value)` of a VARCHAR expression, byte for byte. DuckDB's `to_json` agrees on
 * every code point except that it writes `\u000B`, `\u000E`, `\u000F` and `\u001A`..`\u001F`
 * in upper case. Escaped backslashes are parked as chr(1) first (which `to_json` itself always
 * escapes), so only real escapes are lower-cased, never a label's literal `\u001A` text.
 */
function jsonStringSql(value: string): string {
  let json = `replace(to_json(${value})::VARCHAR, '\\\\', chr(1))`;
  for (const hex of ['0B', '0E', '0F', '1A', '1B', '1C', '1D', '1E', '1F']) {
    json = `replace(${json}, '\\u00${hex}', '\\u00${hex.toLowerCase()}')`;
  }
  return `replace(${json}, chr(1), '\\\\')`;
}

/** `formatCsvCell` of a nullable VARCHAR expression: neutralised (CWE-1236), then RFC 4180 quoted. */
function csvCellSql(value: string): string {
  const neutralised = `CASE WHEN regexp_matches(${value}, '^[=+\\-@\\t\\r]') THEN '''' || ${value} ELSE ${value} END`;
  return `CASE WHEN ${value} IS NULL THEN '' WHEN regexp_matches(${value}, '[",\\r\\n]')
    THEN '"' || replace(${neutralised}, '"', '""') || '"' ELSE ${neutralised} END`;
}

/** `Date#toISOString()` of a TIMESTAMP expression within years 0000-9999. */
const isoSql = (timestamp: string) => `strftime(${timestamp}, '%Y-%m-%dT%H:%M:%S.%gZ')`;

/**
 * The `dimensions` object of a record as JSON text (`JSON.stringify(toDimensions(...))`): the
 * id and label fields of `groupBy`, each left out when NULL.
 */
function dimensionsJsonSql(groupBy: GroupBy, id: string, label: string | null): string {
  const { json } = DIMENSIONS[groupBy];
  const fields = [
    json.id
      ? `CASE WHEN ${id} IS NOT NULL THEN '"${json.id}":"' || ${id}::VARCHAR || '"' END`
      : null,
    label
      ? `CASE WHEN ${label} IS NOT NULL THEN '"${json.label}":' || ${jsonStringSql(label)} END`
      : null,
  ].filter((field) => field !== null);
  if (fields.length === 0) return `'{}'`;
  return `'{' || concat_ws(',', ${fields.join(', ')}) || '}'`;
}

/** The seven dimension cells of a CSV line (only `groupBy`'s filled), joined by commas. */
function dimensionsCsvSql(groupBy: GroupBy, id: string, label: string | null): string {
  const { csv } = DIMENSIONS[groupBy];
  const cells = USAGE_CSV_COLUMNS.slice(2, 9).map((column) => {
    if (column === csv.id) return `coalesce(${id}::VARCHAR, '')`;
    if (column === csv.label) return label ? csvCellSql(label) : `''`;
    return `''`;
  });
  return cells.join(` || ',' || `);
}

/**
 * The core of every usage statement: a CTE list ending in `result(k, dim_id, label, label_json,
 * traces)`, one row per (bucket number `k`, dimension) with traces > 0. Bucket `k` starts at
 * `origin + k * stride`. Whole UTC days come from `usage_cumulative` (two list reads per bucket
 * and dimension value), partial days at the ends and hourly ranges from `traces`. `rawOnly`
 * ignores the rollups (the benchmark's baseline). Null when no data can match.
 */
function buildResultCte(
  plan: UsageQueryPlan,
  options: { rawOnly?: boolean; render?: 'json' | 'csv' },
  bind: (value: string | number) => string,
): { cte: string; originMs: number; strideMs: number } | null {
  const dim = DIMENSIONS[plan.groupBy];
  const hourly = plan.stride.days === 0;
  const from = Math.max(plan.startMs, plan.floorMs ?? plan.startMs);
  const { rollupDays, rawIntervals } = planRange(from, plan.endMs, !hourly && !options.rawOnly);
  const originMs = bucketOrigin(plan.startMs, plan.stride);
  const step = strideMs(plan.stride);
  const workspaces = `workspace_id IN (${plan.workspaceIds.map((id) => `${bind(id)}::UUID`).join(', ')})`;

  const sources: string[] = [];
  if (rollupDays) {
    // All in epoch days; the rollup's days start at or after the origin, so `//` is a floor.
    const first = rollupDays.from / DAY_MS;
    const end = rollupDays.to / DAY_MS;
    const origin = originMs / DAY_MS;
    const days = plan.stride.days;
    // Per row: the bucket numbers it overlaps and their counts, computed from the list before
    // unnesting (unnesting next to `cum` would copy the whole list once per bucket).
    const lo = `greatest(${origin} + k * ${days}, period_start, ${first}) - period_start + 1`;
    const hi = `least(${origin} + (k + 1) * ${days}, period_end, ${end}) - period_start + 1`;
    sources.push(`SELECT unnest(ks) AS k, dim_id, unnest(counts) AS traces
      FROM (
        SELECT dim_id, ks, list_transform(ks, k -> cum[${hi}] - cum[${lo}]) AS counts
        FROM (
          SELECT dim_id, cum, period_start, period_end,
            range((greatest(period_start, ${first}) - ${origin}) // ${days},
              (least(period_end, ${end}) - 1 - ${origin}) // ${days} + 1) AS ks
          FROM (
            SELECT dim_id, cum, period * ${PERIOD_DAYS} AS period_start,
              (period + 1) * ${PERIOD_DAYS} AS period_end
            FROM usage_cumulative
            WHERE grouping = ${bind(plan.groupBy)} AND ${workspaces}
              AND period BETWEEN ${Math.floor(first / PERIOD_DAYS)} AND ${Math.floor((end - 1) / PERIOD_DAYS)}
          )
        )
      )`);
  }
  for (const interval of rawIntervals) {
    sources.push(`SELECT (epoch_ms(start_time) - ${originMs}) // ${step} AS k, ${dim.column} AS dim_id,
        1 AS traces FROM traces
      WHERE ${workspaces} AND start_time >= ${bind(iso(interval.from))}::TIMESTAMP
        AND start_time < ${bind(iso(interval.to))}::TIMESTAMP`);
  }
  // Nothing to read (the whole range lies before the floor): the answer is no rows.
  if (sources.length === 0) return null;

  // The rendered dimension fields, computed once per dimension value (and per row only for ids
  // missing from the dimension table); only those of the requested output, to keep planning short.
  const fallback = (render: 'json' | 'csv') =>
    render === 'json'
      ? dimensionsJsonSql(plan.groupBy, 'b.dim_id', null)
      : dimensionsCsvSql(plan.groupBy, 'b.dim_id', null);
  const own = (render: 'json' | 'csv') =>
    render === 'json'
      ? dimensionsJsonSql(plan.groupBy, 'id', dim.label)
      : dimensionsCsvSql(plan.groupBy, 'id', dim.label);
  const rendered = options.render
    ? {
        labels: `, ${own(options.render)} AS dims`,
        result: `,\n        CASE WHEN d.id IS NULL THEN ${fallback(options.render)} ELSE d.dims END AS dims`,
      }
    : { labels: '', result: '' };
  const cte = `
    facts AS (${sources.join('\n      UNION ALL ')}),
    buckets AS (SELECT k, dim_id, sum(traces) AS traces FROM facts GROUP BY ALL),
    labels AS (
      -- rank: the order of labelled values (label, then id) as an integer, NULL without a label.
      SELECT id, ${dim.label} AS label,
        CASE WHEN ${dim.label} IS NOT NULL
          THEN row_number() OVER (ORDER BY ${dim.label} NULLS LAST, id) END AS rank${rendered.labels}
      FROM ${dim.table}
    ),
    result AS (
      SELECT b.k, b.dim_id, d.label, d.rank, b.traces${rendered.result}
      FROM buckets b LEFT JOIN labels d ON d.id = b.dim_id
      WHERE b.traces > 0
    ),
    bucket_times AS (
      SELECT k, ${isoSql(`make_timestamp((${originMs} + k * ${step}) * 1000)`)} AS iso_start,
        CASE WHEN ${originMs} + (k + 1) * ${step} >= ${plan.endMs} THEN ${bind(iso(plan.endMs))}
          ELSE ${isoSql(`make_timestamp((${originMs} + (k + 1) * ${step}) * 1000)`)} END AS iso_end
      FROM range(${Math.ceil((plan.endMs - originMs) / step)}) t(k)
    )`;
  return { cte, originMs, strideMs: step };
}

/** By bucket, then label, then id (`rank` is the position by label and id; unlabelled last, by id). */
const ORDER = 'k, rank NULLS LAST, dim_id NULLS LAST';

function withBinder(): { values: (string | number)[]; bind: (value: string | number) => string } {
  const values: (string | number)[] = [];
  return {
    values,
    bind: (value) => {
      values.push(value);
      return `$${values.length}`;
    },
  };
}

/**
 * One row per (bucket, dimension) with traces > 0, ordered by bucket, then label, then id:
 * `bucket_ms` (DOUBLE), `dim_id`, `label` (VARCHAR, either may be NULL), `traces` (DOUBLE).
 * Identifiers come from the fixed table above; every value is a bound parameter or a number
 * computed here. Null when no data can match.
 */
export function buildUsageSql(
  plan: UsageQueryPlan,
  options: { rawOnly?: boolean } = {},
): BoundSql | null {
  const { values, bind } = withBinder();
  const core = buildResultCte(plan, options, bind);
  if (!core) return null;
  const sql = `WITH ${core.cte}
    SELECT (${core.originMs} + k * ${core.strideMs})::DOUBLE AS bucket_ms, dim_id::VARCHAR AS dim_id,
      label, traces::DOUBLE AS traces
    FROM result ORDER BY ${ORDER}`;
  return { sql, values };
}

/**
 * The `usage` array of the JSON response, rendered by DuckDB: one row per bucket, in order,
 * each a BLOB of UTF-8 text holding the bucket's records joined by commas, byte for byte what `JSON.stringify` gives for
 * `{time_bucket, dimensions, traces}` (absent dimension fields left out). Null when no data can
 * match.
 */
export function buildUsageJsonSql(plan: UsageQueryPlan): BoundSql | null {
  const { values, bind } = withBinder();
  const core = buildResultCte(plan, { render: 'json' }, bind);
  if (!core) return null;
  const record = `concat('{"time_bucket":"', t.iso_start, '","dimensions":', r.dims, ',"traces":', r.traces, '}')`;
  // One string per bucket: the buckets' records are sorted in parallel, and only by integers.
  const sql = `WITH ${core.cte}
    SELECT encode(string_agg(${record}, ',' ORDER BY r.rank NULLS LAST, r.dim_id NULLS LAST)) AS usage
    FROM result r JOIN bucket_times t USING (k)
    GROUP BY r.k ORDER BY r.k`;
  return { sql, values };
}

/**
 * The CSV data rows (spec 2.3), rendered by DuckDB in blocks of `linesPerChunk` lines: one
 * BLOB of UTF-8 text per row, in order, each the concatenation of whole CRLF-terminated lines, byte for
 * byte what `formatCsvRow` gives for the ten columns. Null when no data can match.
 */
export function buildUsageCsvSql(plan: UsageQueryPlan, linesPerChunk: number): BoundSql | null {
  const { values, bind } = withBinder();
  const core = buildResultCte(plan, { render: 'csv' }, bind);
  if (!core) return null;
  // Numbered before rendering, so the sort moves integers and not text.
  const sql = `WITH ${core.cte},
    numbered AS (
      SELECT *, row_number() OVER (ORDER BY k, rank NULLS LAST, dim_id NULLS LAST) - 1 AS n
      FROM result
    )
    SELECT encode(string_agg(
      concat(t.iso_start, ',', t.iso_end, ',', r.dims, ',', r.traces, chr(13), chr(10)), '' ORDER BY r.n
    )) AS chunk
    FROM numbered r JOIN bucket_times t USING (k)
    GROUP BY r.n // ${linesPerChunk} ORDER BY r.n // ${linesPerChunk}`;
  return { sql, values };
}
