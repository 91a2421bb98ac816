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
  let pending = 0;
  const inTurn = <T>(read: () => Promise<T>): Promise<T> => {
    pending += 1;
    const next = tail.then(read).finally(() => {
      pending -= 1;
    });
    tail = next.catch(() => undefined);
    return next;
  };
  let released: Promise<void> | undefined;
  // Disconnecting ends the read transaction. Done at once when no read is under way, so the end
  // of an export is not held up by a round trip.
  const disconnect = () => {
    signal?.removeEventListener('abort', interrupt);
    connection.closeSync();
  };
  return {
    catalog: (groupBy) => inTurn(() => catalogs(connection, groupBy)),
    extent: (groupBy) => inTurn(() => readDataExtent(connection, groupBy)),
    matrix: (plan, catalog, extent) =>
      inTurn(() => queryUsageMatrix(connection, plan, catalog, extent)),
    release() {
      released ??= pending === 0 ? Promise.resolve(disconnect()) : tail.then(disconnect);
      return released;
    },
  };
}
