import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testProfile } from '@server/usage/seed/seed-profiles';
import { openStore } from '@server/usage/store/open-usage-store';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  type ServerProcess,
} from '@server/test/server-process';
import { jsonTraces, todayRange } from '../ingest-helpers';
import { ADMIN, usageUrl } from '../test-server';
import { freshStore, HAVE_SCALE_OUT_SERVERS, SKIP_REASON, type FreshStore } from './fresh-stores';

const rootRun = (id: string, session: string) => ({
  id,
  trace_id: id,
  dotted_order: `20261123T120000000000Z${id}`,
  name: 'root',
  run_type: 'chain',
  session_name: session,
});

/** POSTs root runs to a replica; resolves with the status, or null when the replica is gone. */
async function sendBatch(baseUrl: string, ids: string[], session: string) {
  try {
    const response = await fetch(`${baseUrl}/api/v1/runs/batch`, {
      method: 'POST',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ post: ids.map((id) => rootRun(id, session)) }),
    });
    return { status: response.status, body: (await response.json()) as { traces_billed?: number } };
  } catch {
    return null;
  }
}

/** Polls until `probe` returns true, or fails after `ms`. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await probe())) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}

describe.skipIf(!HAVE_SCALE_OUT_SERVERS)(
  `two replicas on one ClickHouse + Postgres (skipped when ${SKIP_REASON})`,
  () => {
    let store: FreshStore;
    const replicas: ServerProcess[] = [];
    const urls: string[] = [];

    beforeAll(async () => {
      store = await freshStore('clickhouse', 'replicas');
    });
    afterAll(async () => {
      for (const replica of replicas) replica.child.kill('SIGKILL');
      await Promise.all(replicas.map((replica) => replica.exited));
      await store?.drop();
      await removeServerDataDirs();
    });

    it('migrates and seeds once when two replicas open an empty store at the same moment', async () => {
      const [a, b] = await Promise.all([openStore(store.choice), openStore(store.choice)]);
      try {
        const results = await Promise.all([
          a.seeder.seedIfEmpty(testProfile()),
          b.seeder.seedIfEmpty(testProfile()),
        ]);
        expect(results.map((result) => result.seeded).sort()).toEqual([false, true]);
        const seeded = results.find((result) => result.seeded)?.traces ?? 0;
        expect(seeded).toBeGreaterThan(10_000);
        expect(await a.health()).toEqual({ traces: seeded });
        expect(await b.health()).toEqual({ traces: seeded });
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }, 120_000);

    it('counts the same trace ids sent to both replicas once, on both, within a second', async () => {
      for (let i = 0; i < 2; i += 1) {
        replicas.push(await startServerProcess({ ...store.env, USAGE_SEED: 'none' }));
      }
      const ready = await Promise.all(replicas.map((replica) => readyUrl(replica)));
      urls.push(...ready.map((url) => url.replace(/\/$/, '')));
      const session = `replicas ${randomUUID()}`;
      const ids = Array.from({ length: 200 }, () => randomUUID());
      const answers = await Promise.all(urls.map((url) => sendBatch(url, ids, session)));
      expect(answers.map((answer) => answer?.status)).toEqual([202, 202]);
      const billed = answers.reduce((sum, answer) => sum + (answer?.body.traces_billed ?? 0), 0);
      expect(billed).toBe(200);
      const counted = async () => {
        const counts = await Promise.all(
          urls.map((url) => jsonTraces(url, 'project_name', session)),
        );
        return counts.every((count) => count === 200);
      };
      expect(await within(1_000, counted)).toBeLessThan(1_000);
    }, 120_000);

    it('serves tiers and deployments from either replica: a tier set on one bills on the other, a report sent to both applies once', async () => {
      const [a = '', b = ''] = urls;
      const json = { ...ADMIN, 'content-type': 'application/json' };
      const session = `tiered ${randomUUID()}`;
      const setTier = await fetch(`${a}/api/v1/sessions`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: session, trace_tier: 'longlived' }),
      });
      expect(setTier.status).toBe(200);
      const ids = Array.from({ length: 20 }, () => randomUUID());
      expect((await sendBatch(b, ids, session))?.status).toBe(202);
      const inTier = async (base: string, tier: string) => {
        const url = new URL(usageUrl(base, { ...todayRange(), groupBy: 'project' }));
        url.searchParams.set('trace_tier', tier);
        const response = await fetch(url, { headers: ADMIN });
        expect(response.status).toBe(200);
        const body = (await response.json()) as {
          usage: { dimensions: { project_name?: string }; traces: number }[];
        };
        return body.usage
          .filter((record) => record.dimensions.project_name === session)
          .reduce((sum, record) => sum + record.traces, 0);
      };
      for (const base of urls) {
        expect(await inTier(base, 'longlived')).toBe(20);
        expect(await inTier(base, 'shortlived')).toBe(0);
      }

      const now = Date.now();
      const agent = `agent ${randomUUID()}`;
      const report = {
        replica_id: randomUUID(),
        started_at: new Date(now - 60_000).toISOString(),
        seq: 1,
        sent_at: new Date(now).toISOString(),
        projects: [agent],
        counts: [
          {
            project_name: agent,
            minute: new Date(Math.floor(now / 60_000) * 60_000).toISOString(),
            agent_runs: 2,
            nodes_executed: 5,
          },
        ],
      };
      const posted = await Promise.all(
        urls.map(async (base) => {
          const response = await fetch(`${base}/api/v1/deployments/metrics`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify(report),
          });
          expect(response.status).toBe(202);
          return ((await response.json()) as { applied: boolean }).applied;
        }),
      );
      expect(posted.sort()).toEqual([false, true]);
      const bodies = await Promise.all(
        urls.map(async (base) => {
          const url = new URL(usageUrl(base, { ...todayRange(), groupBy: 'project' }));
          url.searchParams.set('kind', 'langsmith_deployments');
          const response = await fetch(url, { headers: ADMIN });
          expect(response.status).toBe(200);
          return response.text();
        }),
      );
      expect(bodies[0]).toBe(bodies[1]);
      const records = (
        JSON.parse(bodies[0] ?? '{}') as {
          usage: { dimensions: { project_name?: string }; agent_runs: number }[];
        }
      ).usage.filter((record) => record.dimensions.project_name === agent);
      expect(records.reduce((sum, record) => sum + record.agent_runs, 0)).toBe(2);
    }, 60_000);

    it('loses no acknowledged trace and counts none twice when a replica is killed -9 while ingesting', async () => {
      const session = `kill ${randomUUID()}`;
      const batches = Array.from({ length: 40 }, () =>
        Array.from({ length: 50 }, () => randomUUID()),
      );
      const acked = new Set<number>();
      let next = 0;
      const sender = async () => {
        while (next < batches.length) {
          const index = next++;
          const answer = await sendBatch(urls[index % 2] ?? '', batches[index] ?? [], session);
          if (answer?.status === 202) acked.add(index);
        }
      };
      const senders = Array.from({ length: 4 }, sender);
      // Kill replica 0 once some of its batches are acknowledged, while others are in flight.
      await within(30_000, async () => [...acked].some((index) => index % 2 === 0));
      replicas[0]?.child.kill('SIGKILL');
      await Promise.all(senders);
      const survivor = urls[1] ?? '';
      const afterKill = await jsonTraces(survivor, 'project_name', session);
      expect(acked.size).toBeGreaterThan(0);
      expect(acked.size).toBeLessThan(batches.length);
      expect(afterKill).toBeGreaterThanOrEqual(acked.size * 50);
      // A client re-sends every batch it has no acknowledgement for (and, here, all the others
      // too): each run must end up counted exactly once.
      for (const ids of batches)
        expect((await sendBatch(survivor, ids, session))?.status).toBe(202);
      expect(await jsonTraces(survivor, 'project_name', session)).toBe(40 * 50);
    }, 120_000);
  },
);
