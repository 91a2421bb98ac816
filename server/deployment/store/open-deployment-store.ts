import type { Config } from '@server/config';
import type { DeploymentStore } from './deployment-store';
import { openPostgresDeploymentStore } from './postgres/postgres-deployment-store';
import { openSqliteDeploymentStore } from './sqlite/sqlite-deployment-store';

/** Postgres when `DATABASE_URI` is set, else the SQLite file in `DATA_DIR` (`npm start` as is). */
export function openDeploymentStore(config: Config): Promise<DeploymentStore> {
  return config.DATABASE_URI
    ? openPostgresDeploymentStore(config.DATABASE_URI)
    : openSqliteDeploymentStore(config.DATA_DIR);
}
