import { expect, it } from 'vitest';
import { useTestDeployment } from '../test/use-test-deployment';
import { runSdkCalls } from './run-sdk-calls';

const deployment = useTestDeployment({ stepMs: 50 });

it('answers every common assistant, thread, run and store SDK call', async () => {
  const results = await runSdkCalls({ deploymentUrl: deployment.url, timeoutMs: 5_000 });
  const served = results.filter((r) => ['assistants', 'threads', 'runs', 'store'].includes(r.area));
  expect(served.filter((r) => !r.pass)).toEqual([]);
  expect(served.length).toBeGreaterThanOrEqual(40);
});
