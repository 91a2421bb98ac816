import type { Pool } from 'pg';

/** One column of an alert table: its name, its Postgres type and what a row puts in it. */
export interface AlertColumn<Row> {
  name: string;
  type: string;
  value: (row: Row) => unknown;
}

/**
 * Inserts alert rows in one statement and returns those that were new. The table's primary key
 * (its alert's limit, month and threshold) lets one replica win each alert, so an alert is
 * recorded, and sent, once whatever the number of replicas evaluating at the same moment.
 * Times are given as ISO instants and stored as UTC (`timestamptz` columns).
 */
export async function insertAlertsOnce<Row extends { alertId: string }>(
  pool: Pool,
  table: string,
  columns: readonly AlertColumn<Row>[],
  rows: readonly Row[],
): Promise<Row[]> {
  if (rows.length === 0) return [];
  const names = columns.map((column) => column.name).join(', ');
  const selected = columns
    .map((column) =>
      column.type === 'timestamptz' ? `r.${column.name} AT TIME ZONE 'UTC'` : `r.${column.name}`,
    )
    .join(', ');
  const arrays = columns.map((column, i) => `$${i + 1}::${column.type}[]`).join(', ');
  const result = await pool.query<{ alert_id: string }>(
    `INSERT INTO ${table} (${names})
     SELECT ${selected} FROM unnest(${arrays}) AS r (${names})
     ON CONFLICT DO NOTHING RETURNING alert_id`,
    columns.map((column) => rows.map(column.value)),
  );
  const won = new Set(result.rows.map((row) => row.alert_id));
  return rows.filter((row) => won.has(row.alertId));
}
