import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeDataDir, startTestDeployment, type TestDeployment } from '../test-deployment';
import { formatConformanceTable, runConformance } from './run-conformance';

const STEP_MS = 250;
let deployment: TestDeployment;

beforeAll(async () => {
  deployment = await startTestDeployment({ stepMs: STEP_MS });
});
afterAll(async () => {
  await deployment.stop();
  await removeDataDir(deployment.dataDir);
});

it('passes every double-texting conformance case against the embedded deployment', async () => {
  // "Later" lands mid-tool: model step done at 1 x STEP_MS, tool running until 2 x STEP_MS.
  const results = await runConformance({ deploymentUrl: deployment.url, laterMs: STEP_MS * 1.5 });
  expect(
    results.filter((r) => !r.pass),
    formatConformanceTable(results),
  ).toEqual([]);
  expect(results).toHaveLength(7);
});
