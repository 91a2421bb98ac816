import type { ClickHouseClient } from '@clickhouse/client';
import type { Pool } from 'pg';
import { withAdvisoryLock } from '@server/db/postgres';
import { migrateClickHouse } from './clickhouse-migrations';
import { migratePostgres } from './postgres-migrations';

/** Any fixed number: the lock every replica takes to migrate, one after the other. */
const MIGRATION_LOCK = 7_240_001;

/**
 * Brings both schemas up to date, Postgres then ClickHouse, under one advisory lock: replicas
 * starting together migrate one at a time, and the later ones find the work done.
 */
export const migrateScaleOut = (pool: Pool, clickhouse: ClickHouseClient): Promise<void> =>
  withAdvisoryLock(pool, MIGRATION_LOCK, async () => {
    await migratePostgres(pool);
    await migrateClickHouse(clickhouse);
  });
