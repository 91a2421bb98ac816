import { BranchSafePostgresSaver } from './checkpoint-saver';
import type pg from 'pg';
import { openPool } from '@server/db/postgres';
import type { DeploymentStore } from '../deployment-store';
import { withRunMetadata } from '../run-metadata';
import { createPostgresAssistantStore } from './assistant-store';
import { createPostgresCheckpointRollback } from './checkpoint-rollback';
import { createPostgresCronStore } from './cron-store';
import { createPostgresKvStore } from './kv-store';
import { migrate, SCHEMA } from './migrations';
import { prepareStatements } from './prepared-statements';
import { createPostgresRunStore } from './run-store';
import { createPostgresThreadStore } from './thread-store';
import { createPostgresThreadTtlStore } from './thread-ttl-store';
import { createPostgresTruncate } from './truncate';

/**
 * The Postgres backend (`DATABASE_URI`): threads, runs, assistants, crons and store items in
 * schema `deployment`, checkpoints through the official `PostgresSaver` in the same schema, so a
 * rollback deletes a run and its checkpoints in one transaction. Any number of processes may
 * open it; the schema is migrated by the first.
 */
export async function openPostgresDeploymentStore(
  databaseUri: string,
  options: { maxConnections?: number } = {},
): Promise<DeploymentStore & { pool: pg.Pool }> {
  const pool = openPool('Deployment database', {
    connectionString: databaseUri,
    max: options.maxConnections ?? 10,
  });
  prepareStatements(pool);
  const saver = new BranchSafePostgresSaver(pool, { schema: SCHEMA });
  try {
    await migrate(pool, () => saver.setup());
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    backend: 'postgres',
    pool,
    threads: createPostgresThreadStore(pool),
    runs: createPostgresRunStore(pool),
    assistants: createPostgresAssistantStore(pool),
    crons: createPostgresCronStore(pool),
    kv: createPostgresKvStore(pool),
    checkpointer: withRunMetadata(saver),
    checkpoints: createPostgresCheckpointRollback(pool),
    ttls: createPostgresThreadTtlStore(pool),
    truncate: createPostgresTruncate(pool),
    poolSize: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
