import { createClient } from '@clickhouse/client';
import { openDuckDbStore } from '@server/usage/store/duckdb/connection';
import type { BackendChoice } from '@server/usage/store/open-usage-store';

/**
 * Every stored trace as `run|workspace|project|user|api key|start ms`, sorted: what the seed and
 * ingestion wrote, read past the port (only tests look at a backend's rows).
 */
export async function storedTraces(choice: BackendChoice): Promise<string[]> {
  if (choice.kind === 'duckdb') {
    // The backend holding the file must be closed: DuckDB allows one process per file.
    const store = await openDuckDbStore(choice.file);
    try {
      const reader = await store.withConnection((connection) =>
        connection.runAndReadAll(
          `SELECT concat_ws('|', run_id, workspace_id, project_id, coalesce(user_id::VARCHAR, ''),
             coalesce(api_key_id::VARCHAR, ''), epoch_ms(start_time)) FROM traces`,
        ),
      );
      return reader
        .getRowsJS()
        .map(([line]) => String(line))
        .sort();
    } finally {
      await store.close();
    }
  }
  const client = createClient({ url: choice.clickhouse.url, database: choice.clickhouse.database });
  try {
    const result = await client.query({
      query: `SELECT concat(toString(run_id), '|', toString(workspace_id), '|',
          toString(project_id), '|', ifNull(toString(user_id), ''), '|',
          ifNull(toString(api_key_id), ''), '|', toString(start_ms)) FROM traces`,
      format: 'TabSeparated',
    });
    return (await result.text()).split('\n').filter(Boolean).sort();
  } finally {
    await client.close();
  }
}
