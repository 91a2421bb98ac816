import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import type { DeploymentStore } from '../deployment-store';
import { withRunMetadata } from '../run-metadata';
import { createSqliteAssistantStore } from './assistant-store';
import { createSqliteCheckpointRollback } from './checkpoint-rollback';
import { createSqliteCronStore } from './cron-store';
import { createSqliteKvStore } from './kv-store';
import { openDeploymentDatabase } from './open-database';
import { createSqliteRunStore } from './run-store';
import { createSqliteThreadStore } from './thread-store';
import { createSqliteThreadTtlStore } from './thread-ttl-store';
import { createSqliteTruncate } from './truncate';

/**
 * The single-process backend: one SQLite file `DATA_DIR/deployment.sqlite` holding threads, runs,
 * assistants, crons, store items and the LangGraph checkpointer's `checkpoints` and `writes`.
 */
export async function openSqliteDeploymentStore(dataDir: string): Promise<DeploymentStore> {
  const db = openDeploymentDatabase(dataDir);
  const checkpointer = withRunMetadata(new SqliteSaver(db));
  // The saver creates its tables on first use; the rollback statements and the runs' claim
  // (which reads the thread's head) need them to exist.
  await checkpointer.saver.getTuple({ configurable: { thread_id: '' } });
  return {
    backend: 'sqlite',
    threads: createSqliteThreadStore(db),
    runs: createSqliteRunStore(db),
    assistants: createSqliteAssistantStore(db),
    crons: createSqliteCronStore(db),
    kv: createSqliteKvStore(db),
    checkpointer,
    checkpoints: createSqliteCheckpointRollback(db),
    ttls: createSqliteThreadTtlStore(db),
    truncate: createSqliteTruncate(db),
    close: async () => {
      db.close();
    },
  };
}
