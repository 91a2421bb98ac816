import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neutraliseCsvCell } from '@contracts/usage/csv';
import { GROUP_BY_VALUES } from '@contracts/usage/usage-schema';
import { DEMO_API_KEYS } from '@server/usage/seed/demo-keys';
import { testProfile } from '@server/usage/seed/seed-profiles';
import { hashApiKey } from '@server/usage/store/api-key-hash';
import { ensureAdminTables } from '@server/usage/store/duckdb/admin/admin-tables';
import { createDuckDbUsageStore } from '@server/usage/store/duckdb/duckdb-usage-store';
import { openDuckDbStore, type DuckDbStore } from '@server/usage/store/duckdb/connection';
import type { BackendChoice } from '@server/usage/store/open-usage-store';
import { UsageInputError, type UsageStoreWithFixtures } from '@server/usage/store/usage-store';
import { parseCsv } from '../csv-parse';
import { freshStore, openStoreWithFixtures, type FreshStore } from './fresh-stores';
import { createRawReference } from './raw-reference';
import { renderThroughPort } from './render-through-port';
import {
  dimensions,
  loadRenderingFixture,
  planFor,
  RANGES,
  workspaceIds,
} from './rendering-fixture';
import { storedTraces } from './stored-traces';
import { defineTierAndDeploymentCases } from './tier-deployment-cases';
import { getUsage } from '@server/usage/queries/get-usage';
import { getDimensionCatalog } from '@server/usage/queries/get-dimension-catalog';

/**
 * The cases every backend must pass, run unchanged on each (one test file per backend, each on
 * stores of its own). The backend under test and a DuckDB reference store get the same data
 * through the port; every answer must be the bytes the raw-trace reference gives (for the
 * DuckDB backend that is `usage-rendering.test.ts`'s check; for ClickHouse it is DuckDB's
 * output, byte for byte).
 */
export function defineUsageContract(kind: BackendChoice['kind']): void {
  let store: FreshStore;
  let referenceStore: FreshStore;
  let backend: UsageStoreWithFixtures;
  let referenceBackend: UsageStoreWithFixtures;
  let duck: DuckDbStore;
  let render: ReturnType<typeof renderThroughPort>;
  let reference: ReturnType<typeof createRawReference>;
  /** The same write on both stores. */
  const onBoth = async (write: (target: UsageStoreWithFixtures) => Promise<unknown>) => {
    await write(backend);
    await write(referenceBackend);
  };

  beforeAll(async () => {
    store = await freshStore(kind, 'contract');
    referenceStore = await freshStore('duckdb', 'contract-reference');
    backend = await openStoreWithFixtures(store.choice);
    if (referenceStore.choice.kind !== 'duckdb') throw new Error('reference is DuckDB');
    duck = await openDuckDbStore(referenceStore.choice.file);
    // The tables kept apart from the numbered migrations, as openDuckDbUsageStore creates them.
    await duck.withConnection(ensureAdminTables);
    referenceBackend = createDuckDbUsageStore(duck);
    await Promise.all([loadRenderingFixture(backend), loadRenderingFixture(referenceBackend)]);
    render = renderThroughPort(backend);
    reference = createRawReference(duck);
  }, 120_000);
  afterAll(async () => {
    await backend?.close();
    await referenceBackend?.close();
    await store?.drop();
    await referenceStore?.drop();
  });

  describe('JSON and CSV: the reference bytes for every range, stride and group_by', () => {
    for (const [start, end, floor] of RANGES) {
      it.each(GROUP_BY_VALUES)(`${start} .. ${end} by %s`, async (groupBy) => {
        const plan = planFor(start, end, groupBy, floor);
        const rows = await reference.rows(plan);
        expect(await render.json(plan)).toBe(await reference.json(plan, rows));
        const csv = await reference.csv(plan, rows);
        expect(await render.csv(plan)).toBe(csv);
        expect(await render.csv(plan, 1)).toBe(csv);
        expect(await render.csv(plan, 200)).toBe(csv);
      });
    }
  });

  describe('CSV by project: spec 2.3 by default, the workspace only with include_context', () => {
    // Cells of a data line: Workspace ID, Workspace Name, Project ID, Project Name (spec order).
    const placed = (csv: string) =>
      parseCsv(csv).map(([, , workspaceId, workspaceName, projectId, projectName]) => ({
        workspaceId,
        workspaceName,
        projectId,
        projectName,
      }));

    it.each(RANGES.slice(0, 3))('%s .. %s', async (start, end, floor) => {
      const plan = planFor(start, end, 'project', floor);
      const rows = await reference.rows(plan);
      const workspaces = await reference.projectWorkspaces();

      const plain = await render.csv(plan);
      expect(plain).toBe(await reference.csv(plan, rows));
      expect(placed(plain).length).toBeGreaterThan(0);
      for (const line of placed(plain)) {
        expect(line).toMatchObject({ workspaceId: '', workspaceName: '' });
        expect(line.projectId).toMatch(/^[0-9a-f-]{36}$/);
      }

      const withContext = await reference.csv(plan, rows, { includeContext: true });
      for (const windowCells of [undefined, 1, 200]) {
        expect(await render.csv(plan, windowCells, { includeContext: true })).toBe(withContext);
      }
      // A project the catalog does not know (or a trace without one) has no workspace to name.
      for (const line of placed(withContext)) {
        const workspace = workspaces.get(line.projectId ?? '');
        // The name as a spreadsheet-safe cell: `=Finance Ops` is written `'=Finance Ops`.
        expect(line).toMatchObject({
          workspaceId: workspace?.id ?? '',
          workspaceName: workspace ? neutraliseCsvCell(workspace.name) : '',
        });
      }
      expect(placed(withContext).filter((line) => line.workspaceId !== '').length).toBeGreaterThan(
        0,
      );
    });

    it.each(GROUP_BY_VALUES.filter((groupBy) => groupBy !== 'project'))(
      'by %s, include_context changes nothing',
      async (groupBy) => {
        const plan = planFor(RANGES[0]?.[0] ?? '', RANGES[0]?.[1] ?? '', groupBy);
        expect(await render.csv(plan, undefined, { includeContext: true })).toBe(
          await render.csv(plan),
        );
      },
    );
  });

  // Before 'ingestion', which bills today's runs into the store under test only.
  defineTierAndDeploymentCases(() => ({ backend, referenceBackend, render, reference }));

  describe('keys and catalog', () => {
    it.each(Object.values(DEMO_API_KEYS))('knows demo key %s as DuckDB does', async (key) => {
      const hash = hashApiKey(key);
      expect(await backend.keys.principalForKey(hash)).toEqual(
        await referenceBackend.keys.principalForKey(hash),
      );
      expect(await backend.keys.writerForKey(hash)).toEqual(
        await referenceBackend.keys.writerForKey(hash),
      );
    });

    it('refuses an unknown key and a key over an unknown workspace', async () => {
      expect(await backend.keys.principalForKey(hashApiKey('lsv2_nobody'))).toBeUndefined();
      const unknown = '7e57da7a-0000-4000-8000-000000000000';
      await expect(
        backend.catalog.createApiKey({ key: 'lsv2_x', label: 'x', workspaceIds: [unknown] }),
      ).rejects.toThrow(UsageInputError);
    });

    it('creates a console key over every workspace', async () => {
      const key = `lsv2_contract_${kind}`;
      expect(await backend.catalog.createApiKey({ key, label: 'contract', workspaceIds: [] })).toBe(
        workspaceIds.length,
      );
      const principal = await backend.keys.principalForKey(hashApiKey(key));
      expect(principal?.permissions).toEqual(['organization:read', 'workspaces:read']);
      expect(principal?.workspaces.map((workspace) => workspace.id).sort()).toEqual(
        [...workspaceIds].sort(),
      );
    });

    it('shows renamed, added and removed values on the next request', async () => {
      const plan = planFor('2026-01-26T00:00:00Z', '2026-01-28T00:00:00Z', 'user');
      const byProject = { ...plan, groupBy: 'project' as const };
      const renamed = dimensions.users[0]?.id ?? '';
      const stranger = '00000000-0000-4000-8000-00000000beef';
      const expectReference = async () => {
        for (const query of [plan, byProject]) {
          expect(await render.json(query)).toBe(await reference.json(query));
          expect(await render.csv(query)).toBe(await reference.csv(query));
        }
      };
      await expectReference(); // fills the catalogs
      await onBoth((target) =>
        target.fixtures.putDimension({ groupBy: 'user', id: renamed, label: '!first@example.com' }),
      );
      await onBoth((target) =>
        target.fixtures.putDimension({
          groupBy: 'user',
          id: stranger,
          label: 'stranger@example.com',
        }),
      );
      await expectReference();
      expect(await render.json(plan)).toContain('"user_email":"stranger@example.com"');
      await onBoth((target) => target.fixtures.removeDimension('user', renamed));
      await onBoth((target) =>
        target.fixtures.putDimension({
          groupBy: 'workspace',
          id: workspaceIds[0] ?? '',
          label: 'Renamed',
        }),
      );
      await expectReference();
      expect(await render.json(plan)).not.toContain('!first@example.com');
    });

    it('creates a workspace and a writer key over it, as DuckDB does', async () => {
      const workspace = {
        id: '7e57da7a-0000-4000-8000-0000000000a1',
        displayName: 'Created, "by the CLI"',
        createdAt: new Date('2026-11-01T10:00:00.123Z'),
      };
      const key = 'lsv2_contract_writer';
      await onBoth((target) => target.catalog.createWorkspace(workspace));
      await onBoth((target) =>
        target.catalog.createApiKey({
          key,
          label: 'writer',
          workspaceIds: [workspace.id],
          writer: true,
        }),
      );
      const principal = await backend.keys.principalForKey(hashApiKey(key));
      expect(principal).toEqual(await referenceBackend.keys.principalForKey(hashApiKey(key)));
      expect(principal?.permissions).toContain('runs:create');
      expect(principal?.workspaces).toMatchObject([
        { id: workspace.id, display_name: workspace.displayName, read_only: false },
      ]);
      expect((await getDimensionCatalog(backend.facts, 'workspace')).labels).toEqual(
        (await getDimensionCatalog(referenceBackend.facts, 'workspace')).labels,
      );
    });
  });

  describe('ingestion', () => {
    const runs = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        runId: `${prefix}-0000-4000-8000-${String(i).padStart(12, '0')}`,
        projectName: i % 2 === 0 ? 'default' : 'contract project',
      }));
    const batch = (list: ReturnType<typeof runs>) => ({
      workspaceId: workspaceIds[2] ?? '',
      userId: dimensions.users[2]?.id ?? null,
      apiKeyId: null,
      runs: list,
    });

    it('bills a run id once: repeats in a batch and re-sent batches are duplicates', async () => {
      const first = runs('c0ffee00', 30);
      const result = await backend.billing.ingestRuns(batch([...first, ...first.slice(0, 5)]));
      expect(result).toMatchObject({ inserted: 30, duplicates: 5 });
      const again = await backend.billing.ingestRuns(
        batch([...first.slice(10), ...runs('c0ffee01', 4)]),
      );
      expect(again).toMatchObject({ inserted: 4, duplicates: 20 });
      const ids = await backend.fixtures.ensureProjects(workspaceIds[2] ?? '', [
        'contract project',
      ]);
      expect(ids.get('contract project')).toMatch(/^[0-9a-f-]{36}$/);
      const day = new Date(result.ingestedAt);
      const from = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
      const today = planFor(
        new Date(from).toISOString(),
        new Date(from + 86_400_000).toISOString(),
        'project',
      );
      const answer = await getUsage(backend.facts, today);
      expect(answer.matrix.counts.reduce((sum, n) => sum + n, 0)).toBe(34);
      expect(answer.matrix.labels).toContain('contract project');
    });

    it('counts a backdated trace once on its own day', async () => {
      const trace = {
        run_id: 'c0ffee02-0000-4000-8000-000000000001',
        workspace_id: workspaceIds[0] ?? '',
        project_id: dimensions.projects[0]?.id ?? '',
        start_time: '2026-02-01T12:00:00Z',
      };
      const plan = planFor('2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z', 'workspace');
      const before = (await getUsage(backend.facts, plan)).matrix.counts.reduce((a, b) => a + b, 0);
      expect(await backend.fixtures.ingestTrace(trace)).toEqual({ inserted: true });
      expect(await backend.fixtures.ingestTrace(trace)).toEqual({ inserted: false });
      const after = (await getUsage(backend.facts, plan)).matrix.counts.reduce((a, b) => a + b, 0);
      expect(after - before).toBe(1);
    });
  });

  describe('seed, extent and health', () => {
    it('reports its traces and the days that hold them', async () => {
      expect((await backend.health()).traces).toBe((await referenceBackend.health()).traces! + 35);
      const snapshot = await backend.facts.snapshot();
      const extent = await snapshot.extent('user');
      await snapshot.release();
      expect(extent?.from).toBeLessThanOrEqual(Date.parse('2026-01-05T00:00:00Z'));
      expect(extent?.to).toBeGreaterThan(Date.now() - 86_400_000);
    });

    it('leaves seeded data alone', async () => {
      expect(await backend.seeder.seedIfEmpty(testProfile())).toMatchObject({ seeded: false });
    });

    it('holds the same traces as DuckDB for the same seed and trace writes', async () => {
      await backend.close();
      await referenceBackend.close();
      const [mine, theirs] = await Promise.all([
        storedTraces(store.choice),
        storedTraces(referenceStore.choice),
      ]);
      expect(mine.length).toBe(theirs.length + 35);
      const theirSet = new Set(theirs);
      expect(mine.filter((line) => !theirSet.has(line))).toHaveLength(35);
    });
  });
}
