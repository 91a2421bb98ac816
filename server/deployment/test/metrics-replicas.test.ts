import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SF, userInput, waitForMessages } from './test-deployment';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

const LEASE_MS = 1_500;

/** One series' value off a replica's `/metrics` page (0 when absent). */
async function scraped(apiUrl: string, series: string): Promise<number> {
  const text = await (await fetch(apiUrl.replace(/deployment$/, 'metrics'))).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe.skipIf(replicaServicesMissing)(
  'metrics of a fleet (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: LEASE_MS, stepMs: 400 });

    beforeAll(async () => {
      await cluster.createDatabase();
    });
    afterAll(() => cluster.stop());

    it('the replica that settles a dead replica`s run counts the lease expiry', async () => {
      const survivor = await cluster.start();
      const victim = await cluster.start();
      const [survivorUrl = ''] = cluster.urls;
      const { thread_id } = await victim.threads.create();
      const run = await victim.runs.create(thread_id, 'agent', { input: userInput(SF) });
      await waitForMessages(victim, thread_id, 2);
      const requeued = 'lg_api_run_lease_expiries_total{outcome="pending"}';
      expect(await scraped(survivorUrl, requeued)).toBe(0);
      const replica = cluster.replicas[1];
      replica?.child.kill('SIGKILL');
      await replica?.exited;
      await expect.poll(() => scraped(survivorUrl, requeued), { timeout: LEASE_MS * 6 }).toBe(1);
      await survivor.runs.join(thread_id, run.run_id);
      expect((await survivor.runs.get(thread_id, run.run_id)).status).toBe('success');
      expect(
        await scraped(
          survivorUrl,
          'lg_api_runs_finished_total{status="success",strategy="enqueue"}',
        ),
      ).toBe(1);
    });
  },
);
