import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '@server/metrics/metrics';
import {
  NYC,
  SF,
  removeDataDir,
  startTestDeployment,
  userInput,
  waitForMessages,
} from './test-deployment';
import type { TestDeployment } from './test-deployment';

/** The value of one series of a scrape, by its name and labels as written (`{status="x"}`). */
async function seriesValue(metrics: ReturnType<typeof createMetrics>, series: string) {
  const line = (await metrics.registry.metrics())
    .split('\n')
    .find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

// On SQLite, and on Postgres in the deployment-postgres project: the gauges read the store.
describe('run gauges read from the store at each scrape', () => {
  const metrics = createMetrics();
  let deployment: TestDeployment;
  beforeAll(async () => {
    deployment = await startTestDeployment({ stepMs: 300, metrics });
  });
  afterAll(async () => {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  });

  it('count pending, running and finished runs as they move', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const first = await client.runs.create(thread_id, 'agent', {
      input: userInput(SF),
      multitaskStrategy: 'reject',
    });
    await waitForMessages(client, thread_id, 1);
    const second = await client.runs.create(thread_id, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'enqueue',
    });
    expect(await seriesValue(metrics, 'lg_api_num_running_runs')).toBe(1);
    expect(await seriesValue(metrics, 'lg_api_num_pending_runs')).toBe(1);
    expect(await seriesValue(metrics, 'lg_api_runs{status="pending"}')).toBe(1);
    await client.runs.join(thread_id, second.run_id);
    expect((await client.runs.get(thread_id, first.run_id)).status).toBe('success');
    expect(await seriesValue(metrics, 'lg_api_runs{status="success"}')).toBe(2);
    expect(await seriesValue(metrics, 'lg_api_num_pending_runs')).toBe(0);
    const finished = (strategy: string) =>
      seriesValue(metrics, `lg_api_runs_finished_total{status="success",strategy="${strategy}"}`);
    expect([await finished('reject'), await finished('enqueue')]).toEqual([1, 1]);
  });

  it('shows the Postgres pool, and no pool on SQLite', async () => {
    await deployment.client.threads.search({ limit: 1 });
    const total = await seriesValue(metrics, 'deployment_db_pool_connections{state="total"}');
    if (process.env.DEPLOYMENT_TEST_BACKEND === 'postgres') expect(total).toBeGreaterThan(0);
    else expect(await metrics.registry.metrics()).not.toContain('deployment_db_pool_connections');
  });
});
