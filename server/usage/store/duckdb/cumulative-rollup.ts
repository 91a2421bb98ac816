/**
 * The cumulative rollup `usage_cumulative`: per (grouping, period, workspace, dimension value)
 * one row whose `cum` list holds running trace totals over a fixed period of PERIOD_DAYS UTC
 * days. `cum[k + 1]` (DuckDB lists are 1-based) = traces in the period's first `k` days, so
 * the traces of any whole-day interval `[a, b)` inside the period are `cum[b - p + 1] -
 * cum[a - p + 1]` (`p` = the period's first day): two list reads per bucket and dimension,
 * whatever the bucket's length or alignment. A 1-year query reads ≈ 3 rows per dimension value
 * instead of 365 daily rows.
 *
 * Days are counted from 1970-01-01 (epoch days); period `n` covers epoch days
 * `[n * PERIOD_DAYS, (n + 1) * PERIOD_DAYS)`. Rows exist only for periods with traces.
 */
export const PERIOD_DAYS = 128;

/** Epoch day of a DATE expression. */
export const epochDaySql = (date: string) => `(${date} - DATE '1970-01-01')`;

/** Floor division by PERIOD_DAYS (DuckDB's `//` truncates toward zero; days before 1970 are negative). */
export const periodOfSql = (epochDay: string) => `floor(${epochDay} / ${PERIOD_DAYS})::INTEGER`;

/**
 * Rebuilds `usage_cumulative` from `usage_daily` (exact: both count the same traces). Used by
 * the seeder after its bulk load and by migration 4 to backfill existing stores.
 */
export const REBUILD_CUMULATIVE_SQL = `
  DELETE FROM usage_cumulative;
  INSERT INTO usage_cumulative
  WITH placed AS (
    SELECT grouping, period, workspace_id, dim_id,
      (epoch_day - period * ${PERIOD_DAYS})::INTEGER AS offs, traces
    FROM (
      SELECT grouping, ${periodOfSql(epochDaySql('day'))} AS period, workspace_id, dim_id,
        ${epochDaySql('day')} AS epoch_day, traces
      FROM usage_daily
    )
  ), ranked AS (
    SELECT *, dense_rank() OVER (ORDER BY grouping, period, workspace_id, dim_id) AS key_id
    FROM placed
  ), keys AS (
    SELECT DISTINCT key_id, grouping, period, workspace_id, dim_id FROM ranked
  ), grid AS (
    SELECT key_id, unnest(range(${PERIOD_DAYS})) AS offs FROM keys
  ), running AS (
    SELECT g.key_id, g.offs,
      sum(coalesce(r.traces, 0)) OVER (PARTITION BY g.key_id ORDER BY g.offs)::BIGINT AS run
    FROM grid g LEFT JOIN ranked r ON r.key_id = g.key_id AND r.offs = g.offs
  ), lists AS (
    SELECT key_id, [0::BIGINT] || list(run ORDER BY offs) AS cum FROM running GROUP BY key_id
  )
  SELECT k.grouping, k.period, k.workspace_id, k.dim_id, l.cum
  FROM keys k JOIN lists l USING (key_id)
  ORDER BY k.grouping, k.period, k.workspace_id, k.dim_id;`;
