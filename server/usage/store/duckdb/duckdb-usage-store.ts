import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createTraceIngestor } from './ingest-trace';
import type { UsageStoreWithFixtures } from '@server/usage/store/usage-store';
import { createDuckDbBilling } from './billing';
import { ensureBillingTables } from './billing-tables';
import { createDuckDbFeedback } from './feedback';
import { createDuckDbLedger } from './ledger';
import { ensureAdminTables } from './admin/admin-tables';
import { readAuditPage, recordChange } from './admin/audit-log';
import { listKeys, revokeKey } from './admin/key-admin';
import { createApiKey } from './create-api-key';
import { createDimensionCatalogs } from './dimension-catalogs';
import { createWorkspace, putDimension, removeDimension } from './dimension-writes';
import { createDuckDbFacts } from './facts';
import { openDuckDbStore, type DuckDbStore } from './connection';
import { ensureNamedProjects } from './ensure-projects';
import { createRunIngestor } from './writer-queue';
import { loadPrincipal } from './load-principal';
import { createLimitAdmission } from './limits/admit-runs';
import { createDuckDbLimitStore } from './limits/duckdb-limit-store';
import { ensureLimitTables } from './limits/limit-tables';
import { loadKeyOwner } from './load-writer';
import { setProjectTier } from './set-project-tier';
import { createDuckDbSessionStore, ensureSessionTable } from './sessions/duckdb-session-store';
import { seedIfEmpty } from './seed/seed-database';
import { createDuckDbLlmUsage } from './llm/duckdb-llm-usage';

/** The embedded backend: one DuckDB file (`DATA_DIR/usage.duckdb`), one process. */
export async function openDuckDbUsageStore(file: string): Promise<UsageStoreWithFixtures> {
  await mkdir(path.dirname(file), { recursive: true });
  const store = await openDuckDbStore(file);
  try {
    await store.withConnection(ensureLimitTables);
    await store.withConnection(ensureSessionTable);
    await store.withConnection(ensureBillingTables);
    await store.withConnection(ensureAdminTables);
  } catch (error) {
    await store.close();
    throw error;
  }
  return createDuckDbUsageStore(store);
}

/**
 * The port over an open DuckDB store. Every write (batches, single traces, dimension changes)
 * goes through the run ingestor's queue, so the one writer never races itself; reads borrow their
 * own connection.
 */
export function createDuckDbUsageStore(store: DuckDbStore): UsageStoreWithFixtures {
  const catalogs = createDimensionCatalogs();
  // Usage limits are decided inside the one writer, before its insert: exact for any senders.
  const admission = createLimitAdmission();
  const ingestor = createRunIngestor(store, { admit: admission.admit });
  const write = ingestor.exclusive;
  const read = store.withConnection.bind(store);
  return {
    kind: 'duckdb',
    facts: createDuckDbFacts(store, catalogs),
    billing: createDuckDbBilling(ingestor),
    catalog: {
      setProjectTier: (workspaceId, name, tier) =>
        write((connection) => setProjectTier(connection, workspaceId, name, tier)),
      createWorkspace: (workspace) => write((connection) => createWorkspace(connection, workspace)),
      createApiKey: (newKey) => write((connection) => createApiKey(connection, newKey)),
    },
    keys: {
      principalForKey: (keyHash) => read((connection) => loadPrincipal(connection, keyHash)),
      writerForKey: (keyHash) => read((connection) => loadKeyOwner(connection, keyHash)),
      list: () => read(listKeys),
      revoke: (id, at) => write((connection) => revokeKey(connection, id, at)),
    },
    audit: {
      record: (change) => write((connection) => recordChange(connection, change)),
      page: (offset, limit) => read((connection) => readAuditPage(connection, offset, limit)),
    },
    limits: createDuckDbLimitStore(store, admission.invalidate),
    llm: createDuckDbLlmUsage(store, write, catalogs),
    feedback: createDuckDbFeedback(store, ingestor),
    ledger: createDuckDbLedger(store),
    fixtures: {
      putDimension: (row) => write((connection) => putDimension(connection, row)),
      removeDimension: (groupBy, id) =>
        write((connection) => removeDimension(connection, groupBy, id)),
      ensureProjects: (workspaceId, names) =>
        write((connection) => ensureNamedProjects(connection, workspaceId, names)),
      ingestTrace: createTraceIngestor(ingestor),
    },
    sessions: createDuckDbSessionStore(store),
    seeder: { seedIfEmpty: (profile, onProgress) => seedIfEmpty(store, profile, onProgress) },
    clientSizes: () => ({ duckdb_writer: ingestor.size() }),
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
