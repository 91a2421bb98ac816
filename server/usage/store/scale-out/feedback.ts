import type { ClickHouseClient } from '@clickhouse/client';
import type { Pool } from 'pg';
import type {
  FeedbackAuthor,
  FeedbackQuery,
  FeedbackStore,
  NewFeedback,
  StoredFeedback,
} from '@server/usage/store/feedback-store';
import { tsvRows, uuidLiteral } from './clickhouse/client';

/**
 * Feedback on ClickHouse + Postgres: feedback and upgrades in Postgres, where the upgrade's
 * primary key (the trace's run id) keeps it to one across replicas, as the billed-run set does
 * for traces; the trace's project and tier are read from ClickHouse, where traces live.
 */
export function createScaleOutFeedback(pool: Pool, clickhouse: ClickHouseClient): FeedbackStore {
  return {
    create: (items, by, at) => createFeedback(pool, clickhouse, items, by, at),
    get: async (workspaceIds, id) => (await selectFeedback(pool, workspaceIds, { id }))[0],
    list: (workspaceIds, query) => selectFeedback(pool, workspaceIds, { query }),
    async remove(workspaceIds, id) {
      const result = await pool.query(
        'DELETE FROM usage.feedback WHERE id = $1 AND workspace_id = ANY($2::uuid[])',
        [id, workspaceIds],
      );
      return (result.rowCount ?? 0) > 0;
    },
  };
}

async function createFeedback(
  pool: Pool,
  clickhouse: ClickHouseClient,
  items: readonly NewFeedback[],
  by: FeedbackAuthor,
  at: Date,
): Promise<string[]> {
  if (items.length === 0) return [];
  await pool.query(
    `INSERT INTO usage.feedback (id, workspace_id, run_id, trace_id, key, created_at, body)
     SELECT f.id, $1, f.run_id, f.trace_id, f.key, $2, f.body
     FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::jsonb[])
       AS f(id, run_id, trace_id, key, body)
     ON CONFLICT (id) DO NOTHING`,
    [
      by.workspaceId,
      at,
      items.map((item) => item.id),
      items.map((item) => item.runId),
      items.map((item) => item.traceId),
      items.map((item) => item.key),
      items.map((item) => JSON.stringify(item.body)),
    ],
  );
  // Every feedback that asks is tried again (a retry after a crash still upgrades); the primary
  // key keeps the upgrade to one, whichever replica gets there first.
  const traceIds = [
    ...new Set(items.flatMap((item) => (item.extend && item.traceId ? [item.traceId] : []))),
  ];
  if (traceIds.length === 0) return [];
  const base = await tsvRows(
    clickhouse,
    `SELECT toString(run_id), toString(project_id) FROM traces
     WHERE workspace_id = ${uuidLiteral(by.workspaceId)} AND trace_tier = 0
       AND run_id IN (${traceIds.map(uuidLiteral).join(', ')})
     LIMIT 1 BY run_id`,
  );
  if (base.length === 0) return [];
  const result = await pool.query<{ trace_id: string }>(
    `INSERT INTO usage.trace_upgrades
       (trace_id, workspace_id, project_id, user_id, api_key_id, upgraded_at)
     SELECT u.trace_id, $1, u.project_id, $2, $3, $4
     FROM unnest($5::uuid[], $6::uuid[]) AS u(trace_id, project_id)
     ON CONFLICT (trace_id) DO NOTHING
     RETURNING trace_id::text`,
    [
      by.workspaceId,
      by.userId,
      by.apiKeyId,
      at,
      base.map(([traceId]) => traceId),
      base.map(([, projectId]) => projectId),
    ],
  );
  return result.rows.map((row) => row.trace_id);
}

async function selectFeedback(
  pool: Pool,
  workspaceIds: readonly string[],
  filter: { id: string } | { query: FeedbackQuery },
): Promise<StoredFeedback[]> {
  const query = 'query' in filter ? filter.query : undefined;
  const result = await pool.query<{
    id: string;
    workspace_id: string;
    created_at: Date;
    body: Record<string, unknown>;
  }>(
    `SELECT id::text, workspace_id::text, created_at, body FROM usage.feedback
     WHERE workspace_id = ANY($1::uuid[])
       AND ($2::uuid IS NULL OR id = $2)
       AND (cardinality($3::uuid[]) = 0 OR run_id = ANY($3::uuid[]))
       AND (cardinality($4::text[]) = 0 OR key = ANY($4::text[]))
     ORDER BY created_at DESC, id
     LIMIT $5 OFFSET $6`,
    [
      workspaceIds,
      'id' in filter ? filter.id : null,
      query?.runIds ?? [],
      query?.keys ?? [],
      query?.limit ?? 1,
      query?.offset ?? 0,
    ],
  );
  return result.rows.map((row) => ({
    id: row.id,
    workspaceId: row.workspace_id,
    createdAt: row.created_at,
    body: row.body,
  }));
}
