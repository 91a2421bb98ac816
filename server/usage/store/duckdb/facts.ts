import type { DuckDBConnection } from '@duckdb/node-api';
import type { FactReads, FactSnapshot } from '@server/usage/store/usage-store';
import type { DuckDbStore } from './connection';
import type { DimensionCatalogs } from './dimension-catalogs';
import { queryDeploymentUsage } from './query-deployment-usage';
import { readDataExtent } from './read-data-extent';
import { queryUsageMatrix } from './read-usage-matrix';

/**
 * The facts of one DuckDB file. A snapshot is one read transaction on a connection of its own
 * (released by rolling it back and disconnecting), so the catalog, the extent and every matrix
 * read in it see the same data, however long an export streams.
 */
export function createDuckDbFacts(store: DuckDbStore, catalogs: DimensionCatalogs): FactReads {
  return {
    async snapshot(_plan, signal) {
      const connection = await store.connect();
      try {
        await connection.run('BEGIN TRANSACTION');
      } catch (error) {
        connection.closeSync();
        throw error;
      }
      return openSnapshot(connection, catalogs, signal);
    },
    deploymentRows: (plan) =>
      store.withConnection((connection) => queryDeploymentUsage(connection, plan)),
  };
}

function openSnapshot(
  connection: DuckDBConnection,
  catalogs: DimensionCatalogs,
  signal: AbortSignal | undefined,
): FactSnapshot {
  const interrupt = () => connection.interrupt();
  signal?.addEventListener('abort', interrupt, { once: true });
  // A connection runs one statement at a time: reads asked for together run one after another.
  let tail: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(read: () => Promise<T>): Promise<T> => {
    const next = tail.then(read);
    tail = next.catch(() => undefined);
    return next;
  };
  let released: Promise<void> | undefined;
  return {
    catalog: (groupBy) => inTurn(() => catalogs(connection, groupBy)),
    extent: (groupBy) => inTurn(() => readDataExtent(connection, groupBy)),
    matrix: (plan, catalog, extent) =>
      inTurn(() => queryUsageMatrix(connection, plan, catalog, extent)),
    release() {
      released ??= (async () => {
        signal?.removeEventListener('abort', interrupt);
        try {
          await tail;
          await connection.run('ROLLBACK');
        } catch {
          // An interrupted or failed read leaves nothing to roll back that closing does not.
        } finally {
          connection.closeSync();
        }
      })();
      return released;
    },
  };
}
