import { expect, it } from 'vitest';
import { useTestDeployment } from '../test/use-test-deployment';
import { runSdkCalls } from './run-sdk-calls';

const deployment = useTestDeployment({ stepMs: 50 });

it('answers every common assistant, thread and store SDK call', async () => {
  const results = await runSdkCalls({ deploymentUrl: deployment.url, timeoutMs: 5_000 });
  const crud = results.filter((r) => ['assistants', 'threads', 'store'].includes(r.area));
  expect(crud.filter((r) => !r.pass)).toEqual([]);
  expect(crud.length).toBeGreaterThanOrEqual(25);
});
