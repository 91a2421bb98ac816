import type { DuckDBConnection } from '@duckdb/node-api';
import {
  DEMO_PLAN,
  UPGRADE_HOURS_PER_DIGIT,
  upgradedSuffixList,
} from '@server/usage/seed/demo-billing';
import { ensureBillingTables } from '../billing-tables';

/** The demo's plan and feedback upgrades (see `seed/demo-billing.ts`), up to `endMs`. */
export async function insertDemoBilling(
  connection: DuckDBConnection,
  endMs: number,
): Promise<void> {
  // Also a bare store (the scale-out seed's export) gets the tables it writes.
  await ensureBillingTables(connection);
  await connection.run('DELETE FROM trace_upgrades');
  await connection.run(
    `INSERT INTO trace_upgrades
       (trace_id, workspace_id, project_id, user_id, api_key_id, upgraded_at)
     SELECT run_id, workspace_id, project_id, user_id, api_key_id, upgraded_at
     FROM (
       SELECT *, start_time + to_hours(
         (strpos('0123456789abcdef', substr(run_id::VARCHAR, 34, 1)) - 1)
           * ${UPGRADE_HOURS_PER_DIGIT}) AS upgraded_at
       FROM traces
       WHERE substr(run_id::VARCHAR, 35, 2) IN (${upgradedSuffixList()})
         AND coalesce(trace_tier, 'shortlived') <> 'longlived'
     )
     WHERE upgraded_at < $1::TIMESTAMP`,
    [new Date(endMs).toISOString()],
  );
  await connection.run(
    `INSERT INTO billing_plan (id, plan, updated_at) VALUES (1, $1, $2::TIMESTAMP)
     ON CONFLICT (id) DO UPDATE SET plan = excluded.plan, updated_at = excluded.updated_at`,
    [JSON.stringify(DEMO_PLAN), new Date(endMs).toISOString()],
  );
}
