import { randomUUID } from 'node:crypto';
import { createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { strideForRange } from '@contracts/usage/stride';
import type { UsageQueryPlan } from '@server/usage/model/usage-plan';
import { openStore } from '@server/usage/store/open-usage-store';
import type { UsageStore } from '@server/usage/store/usage-store';
import {
  freshStore,
  HAVE_SCALE_OUT_SERVERS,
  openStoreWithFixtures,
  SKIP_REASON,
  type FreshStore,
} from './fresh-stores';
import { getUsage } from '@server/usage/queries/get-usage';
import { DAY_MS } from '@contracts/usage/time';

const START = Date.parse('2026-01-03T00:00:00Z');
const WORKSPACE = randomUUID();
const PROJECT = randomUUID();
const USERS = [randomUUID(), randomUUID(), randomUUID()];

/** A year by user (30-day buckets: read from `usage_periods`), as (user, bucket start, traces). */
async function yearByUser(backend: UsageStore): Promise<string[]> {
  const grid = createBucketGrid(START, START + 365 * DAY_MS, strideForRange(0, 365 * DAY_MS));
  const plan: UsageQueryPlan = { grid, floorMs: null, workspaceIds: [WORKSPACE], groupBy: 'user' };
  const { plan: cut, matrix } = await getUsage(backend.facts, plan);
  const cells: string[] = [];
  matrix.ids.forEach((id, value) => {
    for (let k = 0; k < matrix.bucketCount; k += 1) {
      const traces = matrix.counts[value * matrix.bucketCount + k] ?? 0;
      if (traces > 0) cells.push(`${id} ${new Date(cut.grid.start(k)).toISOString()} ${traces}`);
    }
  });
  return cells.sort();
}

describe.skipIf(!HAVE_SCALE_OUT_SERVERS)(
  `upgrading a ClickHouse store to the periods rollup (skipped when ${SKIP_REASON})`,
  () => {
    let store: FreshStore;
    beforeAll(async () => {
      store = await freshStore('clickhouse', 'upgrade');
    });
    afterAll(async () => {
      await store?.drop();
    });

    it('answers the same after migration 3 is applied to a store that held traces before it, and again after a re-run', async () => {
      if (store.choice.kind !== 'clickhouse') throw new Error('a ClickHouse store');
      const backend = await openStoreWithFixtures(store.choice);
      // Traces on days across three 128-day periods, one to three per day and user, sent
      // together (written as one insert).
      const traces = Array.from({ length: 43 }, (_, week) =>
        USERS.flatMap((user, i) =>
          Array.from({ length: 1 + ((week + i) % 3) }, (_, n) => ({
            run_id: randomUUID(),
            workspace_id: WORKSPACE,
            project_id: PROJECT,
            user_id: user,
            start_time: new Date(START + week * 7 * DAY_MS + (n + 1) * 3_600_000).toISOString(),
          })),
        ),
      ).flat();
      await Promise.all(traces.map((trace) => backend.fixtures.ingestTrace(trace)));
      const before = await yearByUser(backend);
      await backend.close();
      // 3 users x 10 buckets (days 0..294 of 30-day buckets), every trace counted once.
      expect(before).toHaveLength(30);
      expect(before.reduce((sum, cell) => sum + Number(cell.split(' ')[2]), 0)).toBe(traces.length);

      // The store as a replica of the previous release left it: no periods rollup, no version 3.
      const clickhouse = createClient({
        url: store.choice.clickhouse.url,
        database: store.choice.clickhouse.database,
      });
      for (const grouping of ['workspace', 'project', 'user', 'api_key']) {
        await clickhouse.command({ query: `DROP TABLE usage_periods_${grouping}` });
      }
      await clickhouse.command({ query: 'DROP TABLE usage_periods' });
      await clickhouse.command({ query: 'TRUNCATE TABLE schema_migrations' });
      await clickhouse.insert({
        table: 'schema_migrations',
        values: [
          { version: 1, name: 'traces and daily rollup' },
          { version: 2, name: 'retention tiers in traces and the daily rollup' },
        ],
        format: 'JSONEachRow',
      });
      await clickhouse.close();

      const upgraded = await openStore(store.choice);
      expect(await yearByUser(upgraded)).toEqual(before);
      await upgraded.close();
      const reopened = await openStore(store.choice);
      expect(await yearByUser(reopened)).toEqual(before);
      await reopened.close();
    });
  },
);
