import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { UsageBackend } from '@server/usage/store/usage-backend';
import { applyDeploymentReport } from './apply-deployment-report';
import { createApiKey } from './create-api-key';
import { createDimensionCatalogs } from './dimension-catalogs';
import { createWorkspace, putDimension, removeDimension } from './dimension-writes';
import { openDuckDbStore, type DuckDbStore } from './duckdb-store';
import { ensureProjects } from './ensure-projects';
import { exportWindows } from './export-windows';
import { getUsage } from './get-usage';
import { createRunIngestor } from './ingest-runs';
import { createTraceIngestor } from './ingest-trace';
import { loadPrincipal } from './load-principal';
import { createLimitAdmission } from './limits/admit-runs';
import { createDuckDbLimitStore } from './limits/duckdb-limit-store';
import { ensureLimitTables } from './limits/limit-tables';
import { loadKeyOwner } from './load-writer';
import { queryDeploymentUsage } from './query-deployment-usage';
import { readDataExtent } from './read-data-extent';
import { setProjectTier } from './set-project-tier';
import { seedIfEmpty } from './seed/seed-database';

/** The embedded backend: one DuckDB file (`DATA_DIR/usage.duckdb`), one process. */
export async function openDuckDbBackend(file: string): Promise<UsageBackend> {
  await mkdir(path.dirname(file), { recursive: true });
  const store = await openDuckDbStore(file);
  try {
    await store.withConnection(ensureLimitTables);
  } catch (error) {
    await store.close();
    throw error;
  }
  return createDuckDbBackend(store);
}

/**
 * The port over an open DuckDB store. Every write (batches, single traces, dimension changes)
 * goes through the run ingestor's queue, so the one writer never races itself; reads borrow their
 * own connection.
 */
export function createDuckDbBackend(store: DuckDbStore): UsageBackend {
  const catalogs = createDimensionCatalogs();
  // Usage limits are decided inside the one writer, before its insert: exact for any senders.
  const admission = createLimitAdmission();
  const ingestor = createRunIngestor(store, { admit: admission.admit });
  const read = store.withConnection.bind(store);
  return {
    kind: 'duckdb',
    ingestRuns: ingestor.ingest,
    ingestTrace: createTraceIngestor(ingestor),
    usage: (plan) => read((connection) => getUsage(connection, plan, catalogs)),
    async *exportWindows(plan, options = {}) {
      const connection = await store.connect();
      const interrupt = () => connection.interrupt();
      options.signal?.addEventListener('abort', interrupt, { once: true });
      try {
        yield* exportWindows(connection, plan, catalogs, options.windowCells);
      } finally {
        options.signal?.removeEventListener('abort', interrupt);
        connection.closeSync();
      }
    },
    applyDeploymentReport: (workspaceId, report, nowMs) =>
      ingestor.exclusive((connection) =>
        applyDeploymentReport(connection, workspaceId, report, nowMs),
      ),
    setProjectTier: (workspaceId, name, tier) =>
      ingestor.exclusive((connection) => setProjectTier(connection, workspaceId, name, tier)),
    deploymentUsage: (plan) => read((connection) => queryDeploymentUsage(connection, plan)),
    dataExtent: (groupBy) => read((connection) => readDataExtent(connection, groupBy)),
    principalForKey: (keyHash) => read((connection) => loadPrincipal(connection, keyHash)),
    writerForKey: (keyHash) => read((connection) => loadKeyOwner(connection, keyHash)),
    catalog: (groupBy) => read((connection) => catalogs(connection, groupBy)),
    putDimension: (row) => ingestor.exclusive((connection) => putDimension(connection, row)),
    removeDimension: (groupBy, id) =>
      ingestor.exclusive((connection) => removeDimension(connection, groupBy, id)),
    ensureProjects: (workspaceId, names) =>
      ingestor.exclusive(async (connection) => {
        const created = new Map<string, string>();
        await connection.run('BEGIN TRANSACTION');
        try {
          const wanted = names.map((name) => ({ workspaceId, name }));
          const idOf = await ensureProjects(connection, wanted, new Map(), created);
          await connection.run('COMMIT');
          return new Map(names.map((name) => [name, idOf(workspaceId, name)]));
        } catch (error) {
          await connection.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }),
    createApiKey: (newKey) => ingestor.exclusive((connection) => createApiKey(connection, newKey)),
    createWorkspace: (workspace) =>
      ingestor.exclusive((connection) => createWorkspace(connection, workspace)),
    seedIfEmpty: (profile, onProgress) => seedIfEmpty(store, profile, onProgress),
    limits: createDuckDbLimitStore(store, admission.invalidate),
    async health() {
      try {
        return await read(async (connection) => {
          const reader = await connection.runAndReadAll('SELECT count(*)::DOUBLE FROM traces');
          return { traces: Number(reader.getRowsJS()[0]?.[0] ?? 0) };
        });
      } catch {
        return { traces: null };
      }
    },
    async close() {
      await ingestor.close();
      await store.close();
    },
  };
}
