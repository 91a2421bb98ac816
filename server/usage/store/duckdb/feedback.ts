import type { DuckDBConnection } from '@duckdb/node-api';
import type {
  FeedbackAuthor,
  FeedbackQuery,
  FeedbackStore,
  NewFeedback,
  StoredFeedback,
} from '@server/usage/store/feedback-store';
import type { DuckDbStore } from './connection';
import type { RunIngestor } from './writer-queue';

/**
 * Feedback on one DuckDB file. Writes go through the run ingestor's queue (the one writer), so
 * an upgrade never races the insert of its trace, and reads borrow a connection of their own.
 */
export function createDuckDbFeedback(store: DuckDbStore, ingestor: RunIngestor): FeedbackStore {
  const read = store.withConnection.bind(store);
  return {
    create: (items, by, at) =>
      ingestor.exclusive((connection) => createFeedback(connection, items, by, at)),
    get: async (workspaceIds, id) =>
      (await read((connection) => selectFeedback(connection, workspaceIds, { id })))[0],
    list: (workspaceIds, query) =>
      read((connection) => selectFeedback(connection, workspaceIds, { query })),
    remove: (workspaceIds, id) =>
      ingestor.exclusive(async (connection) => {
        const reader = await connection.runAndReadAll(
          `DELETE FROM feedback
           WHERE id = $1::UUID AND list_contains(string_split($2, ','), workspace_id::VARCHAR)
           RETURNING id`,
          [id, workspaceIds.join(',')],
        );
        return reader.getRows().length > 0;
      }),
  };
}

async function createFeedback(
  connection: DuckDBConnection,
  items: readonly NewFeedback[],
  by: FeedbackAuthor,
  at: Date,
): Promise<string[]> {
  await connection.run('BEGIN TRANSACTION');
  try {
    for (const item of items) {
      await connection.run(
        `INSERT INTO feedback (id, workspace_id, run_id, trace_id, key, created_at, body)
         VALUES ($1::UUID, $2::UUID, $3::UUID, $4::UUID, $5, $6::TIMESTAMP, $7)
         ON CONFLICT (id) DO NOTHING`,
        [
          item.id,
          by.workspaceId,
          item.runId,
          item.traceId,
          item.key,
          at.toISOString(),
          JSON.stringify(item.body),
        ],
      );
    }
    // Every feedback that asks is tried again (a retry after a crash still upgrades), and the
    // primary key keeps the upgrade to one: repeats and other feedback on the trace change
    // nothing. A trace ingested extended is extended already and is never upgraded.
    const traceIds = [
      ...new Set(items.filter((item) => item.extend && item.traceId).map((item) => item.traceId)),
    ];
    let upgraded: string[] = [];
    if (traceIds.length > 0) {
      const reader = await connection.runAndReadAll(
        `INSERT INTO trace_upgrades
           (trace_id, workspace_id, project_id, user_id, api_key_id, upgraded_at)
         SELECT t.run_id, t.workspace_id, t.project_id, $3::UUID, $4::UUID, $5::TIMESTAMP
         FROM traces t
         WHERE t.workspace_id = $2::UUID
           AND list_contains(string_split($1, ','), t.run_id::VARCHAR)
           AND coalesce(t.trace_tier, 'shortlived') <> 'longlived'
         ON CONFLICT (trace_id) DO NOTHING
         RETURNING trace_id::VARCHAR`,
        [traceIds.join(','), by.workspaceId, by.userId, by.apiKeyId, at.toISOString()],
      );
      upgraded = reader.getRowsJS().map(([id]) => String(id));
    }
    await connection.run('COMMIT');
    return upgraded;
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function selectFeedback(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
  filter: { id: string } | { query: FeedbackQuery },
): Promise<StoredFeedback[]> {
  const query = 'query' in filter ? filter.query : undefined;
  const reader = await connection.runAndReadAll(
    `SELECT id::VARCHAR, workspace_id::VARCHAR, created_at::VARCHAR, body FROM feedback
     WHERE list_contains(string_split($1, ','), workspace_id::VARCHAR)
       AND ($2 = '' OR id::VARCHAR = $2)
       AND ($3 = '' OR list_contains(string_split($3, ','), run_id::VARCHAR))
       AND ($4 = '' OR list_contains(string_split($4, chr(31)), key))
     ORDER BY created_at DESC, id
     LIMIT $5 OFFSET $6`,
    [
      workspaceIds.join(','),
      'id' in filter ? filter.id.toLowerCase() : '',
      (query?.runIds ?? []).map((id) => id.toLowerCase()).join(','),
      (query?.keys ?? []).join('\u001f'),
      query?.limit ?? 1,
      query?.offset ?? 0,
    ],
  );
  return reader.getRowsJS().map(([id, workspaceId, createdAt, body]) => ({
    id: String(id),
    workspaceId: String(workspaceId),
    createdAt: new Date(`${String(createdAt).replace(' ', 'T')}Z`),
    body: JSON.parse(String(body)) as Record<string, unknown>,
  }));
}
