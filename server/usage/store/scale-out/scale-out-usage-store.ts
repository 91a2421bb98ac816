import type pg from 'pg';
import { openPool } from '@server/db/postgres';
import { poolSize } from '@server/metrics/client-sizes';
import type { ClickHouseClient } from '@clickhouse/client';
import { TIER_CATALOG } from '@server/usage/model/trace-tiers';
import { createScaleOutBilling } from './billing';
import { ensureBillingTables } from './billing-tables';
import { createScaleOutFeedback } from './feedback';
import { createScaleOutLedger } from './ledger';
import { readAuditPage, recordChange } from './admin/audit-log';
import { listKeys, revokeKey } from './admin/key-admin';
import { createApiKey } from './create-api-key';
import { createWorkspace, putDimension, removeDimension } from './dimension-writes';
import { ensureProjects } from './ensure-projects';
import { setProjectTier } from './set-project-tier';
import { createDimensionCatalogs } from './dimension-catalogs';
import { loadPrincipal } from './load-principal';
import { loadKeyOwner } from './load-writer';
import { createScaleOutFacts } from './facts';
import { migrateScaleOut } from './migrations';
import type { TraceGroupBy } from '@contracts/usage/usage-schema';
import { createTraceIngestor } from './ingest-trace';
import type { UsageStoreWithFixtures } from '@server/usage/store/usage-store';
import { openClickHouse, tsvRows, type ClickHouseSettings } from './clickhouse/client';
import { createClickHouseReader, type ClickHouseReader } from './clickhouse/reader';
import { createPostgresLimitStore } from './limits/scale-out-limit-store';
import { createIngestQueue } from './clickhouse/ingest-queue';
import { createMonthBaseline } from './clickhouse/month-baseline';
import { createTargetBaseline } from './clickhouse/target-baseline';
import { seedClickHouse } from './seed/seed-database';
import { createScaleOutLlmUsage } from './llm/scale-out-llm-usage';
import { createPostgresSessionStore, ensureSessionTable } from './sessions/postgres-session-store';

/** Under `/healthz`'s bound per service (2 s), so a hung ClickHouse is named, not timed out. */
const HEALTH_TIMEOUT_MS = 1_500;

export interface ScaleOutOptions {
  clickhouse: ClickHouseSettings;
  /** Postgres connection string (schema `usage` is created when missing). */
  databaseUri: string;
}

/**
 * The scale-out backend: traces and the daily rollup in ClickHouse, keys, catalog and the billed
 * run ids in Postgres. Any number of replicas may open the same pair: migrations and the demo
 * seed take Postgres advisory locks, and a run id is billed once through the shared claim set.
 */
export async function openScaleOutUsageStore(
  options: ScaleOutOptions,
): Promise<UsageStoreWithFixtures> {
  const pool = openPool('Usage database', { connectionString: options.databaseUri, max: 10 });
  let clickhouse: ClickHouseClient | undefined;
  try {
    clickhouse = await openClickHouse(options.clickhouse);
    await migrateScaleOut(pool, clickhouse);
    await ensureSessionTable(pool);
    await ensureBillingTables(pool);
  } catch (error) {
    await clickhouse?.close();
    await pool.end();
    throw error;
  }
  return createScaleOutUsageStore(pool, clickhouse, createClickHouseReader(options.clickhouse));
}

function createScaleOutUsageStore(
  pool: pg.Pool,
  clickhouse: ClickHouseClient,
  reader: ClickHouseReader,
): UsageStoreWithFixtures {
  const entityCatalogs = createDimensionCatalogs(pool);
  const catalogs = async (groupBy: TraceGroupBy) =>
    groupBy === 'trace_tier' ? TIER_CATALOG : entityCatalogs(groupBy);
  const baseline = createMonthBaseline(clickhouse);
  const targetBaseline = createTargetBaseline(clickhouse);
  const queue = createIngestQueue(pool, clickhouse, baseline, targetBaseline);
  const llm = createScaleOutLlmUsage(pool, clickhouse, reader, entityCatalogs);
  let closing: Promise<void> | undefined;
  return {
    kind: 'clickhouse',
    facts: createScaleOutFacts(pool, reader, catalogs),
    billing: createScaleOutBilling(pool, queue),
    catalog: {
      setProjectTier: (workspaceId, name, tier) => setProjectTier(pool, workspaceId, name, tier),
      createWorkspace: (workspace) => createWorkspace(pool, workspace),
      createApiKey: (newKey) => createApiKey(pool, newKey),
    },
    keys: {
      principalForKey: (keyHash) => loadPrincipal(pool, keyHash),
      writerForKey: (keyHash) => loadKeyOwner(pool, keyHash),
      list: () => listKeys(pool),
      revoke: (id, at) => revokeKey(pool, id, at),
    },
    audit: {
      record: (change) => recordChange(pool, change),
      page: (offset, limit) => readAuditPage(pool, offset, limit),
    },
    limits: createPostgresLimitStore(pool, baseline, targetBaseline),
    llm,
    feedback: createScaleOutFeedback(pool, clickhouse),
    ledger: createScaleOutLedger(pool, clickhouse),
    fixtures: {
      putDimension: (row) => putDimension(pool, row),
      removeDimension: (groupBy, id) => removeDimension(pool, groupBy, id),
      ensureProjects: (workspaceId, names) => ensureProjects(pool, workspaceId, names),
      ingestTrace: createTraceIngestor(pool, queue),
    },
    sessions: createPostgresSessionStore(pool),
    seeder: {
      seedIfEmpty: (profile, onProgress) => seedClickHouse(pool, clickhouse, profile, onProgress),
    },
    clientSizes: () => ({
      usage_postgres: poolSize(pool),
      clickhouse_reads: reader.size(),
      clickhouse_ingest: queue.size(),
    }),
    // Rejects with the error of the database that does not answer, so /healthz names it.
    async health() {
      const [rows] = await Promise.all([
        tsvRows(clickhouse, 'SELECT count() FROM traces', HEALTH_TIMEOUT_MS),
        pool.query('SELECT 1'),
      ]);
      return { traces: Number(rows[0]?.[0] ?? 0) };
    },
    close() {
      closing ??= (async () => {
        await queue.close();
        await llm.close();
        reader.close();
        await clickhouse.close();
        await pool.end();
      })();
      return closing;
    },
  };
}
