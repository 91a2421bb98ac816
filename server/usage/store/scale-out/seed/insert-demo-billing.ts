import type { ClickHouseClient } from '@clickhouse/client';
import type { PoolClient } from 'pg';
import {
  DEMO_PLAN,
  UPGRADE_HOURS_PER_DIGIT,
  upgradedSuffixList,
} from '@server/usage/seed/demo-billing';
import { tsvRows } from '../clickhouse/client';

const CHUNK = 5_000;

/**
 * The demo's plan and feedback upgrades (see `seed/demo-billing.ts`), up to `endMs`: the same
 * traces DuckDB picks (by their run id's text), read from ClickHouse into Postgres.
 */
export async function insertDemoBilling(
  client: PoolClient,
  clickhouse: ClickHouseClient,
  endMs: number,
): Promise<void> {
  const rows = await tsvRows(
    clickhouse,
    `SELECT toString(run_id), toString(workspace_id), toString(project_id),
       ifNull(toString(user_id), ''), ifNull(toString(api_key_id), ''), toString(upgraded_ms)
     FROM (
       SELECT *, start_ms + (position('0123456789abcdef', substring(toString(run_id), 34, 1)) - 1)
         * ${UPGRADE_HOURS_PER_DIGIT} * 3600000 AS upgraded_ms
       FROM traces
       WHERE substring(toString(run_id), 35, 2) IN (${upgradedSuffixList()}) AND trace_tier = 0
     )
     WHERE upgraded_ms < ${endMs}`,
  );
  await client.query('DELETE FROM usage.trace_upgrades');
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const column = (index: number) => chunk.map((row) => row[index] || null);
    await client.query(
      `INSERT INTO usage.trace_upgrades
         (trace_id, workspace_id, project_id, user_id, api_key_id, upgraded_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[],
         $6::timestamptz[])
       ON CONFLICT (trace_id) DO NOTHING`,
      [
        column(0),
        column(1),
        column(2),
        column(3),
        column(4),
        chunk.map((row) => new Date(Number(row[5]))),
      ],
    );
  }
  await client.query(
    `INSERT INTO usage.billing_plan (id, plan, updated_at) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET plan = excluded.plan, updated_at = excluded.updated_at`,
    [JSON.stringify(DEMO_PLAN), new Date(endMs)],
  );
}
