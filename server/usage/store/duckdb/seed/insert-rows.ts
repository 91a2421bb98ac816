import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';

const ROWS_PER_STATEMENT = 500;

/**
 * Inserts `rows` with bound parameters, 500 rows per statement. `casts` holds one SQL type per
 * column (e.g. `UUID`) so values can be passed as strings. For small tables only: bulk data is
 * generated inside DuckDB.
 */
export async function insertRows(
  connection: DuckDBConnection,
  table: string,
  casts: readonly string[],
  rows: readonly DuckDBValue[][],
): Promise<void> {
  for (let offset = 0; offset < rows.length; offset += ROWS_PER_STATEMENT) {
    const batch = rows.slice(offset, offset + ROWS_PER_STATEMENT);
    let n = 0;
    const tuples = batch.map(() => `(${casts.map((cast) => `$${++n}::${cast}`).join(', ')})`);
    await connection.run(`INSERT INTO ${table} VALUES ${tuples.join(', ')}`, batch.flat());
  }
}
