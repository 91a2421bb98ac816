import { expect, it } from 'vitest';
import { useTestDeployment } from '@server/deployment/test/use-test-deployment';
import { runSdkCalls } from './run-sdk-calls';

const deployment = useTestDeployment({ stepMs: 50 });

it('answers every common assistant, thread, run, store and cron SDK call', async () => {
  const results = await runSdkCalls({ deploymentUrl: deployment.url, timeoutMs: 5_000 });
  expect(results.filter((r) => !r.pass)).toEqual([]);
  expect(results.length).toBeGreaterThanOrEqual(50);
});
