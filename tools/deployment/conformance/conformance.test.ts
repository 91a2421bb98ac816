import { expect, it } from 'vitest';
import { useTestDeployment } from '@server/deployment/test/use-test-deployment';
import { formatConformanceTable, runConformance } from './run-conformance';

const STEP_MS = 250;
const deployment = useTestDeployment({ stepMs: STEP_MS });

it('passes every double-texting and streaming conformance case against the embedded deployment', async () => {
  // "Later" lands mid-tool: model step done at 1 x STEP_MS, tool running until 2 x STEP_MS.
  const results = await runConformance({ deploymentUrl: deployment.url, laterMs: STEP_MS * 1.5 });
  expect(
    results.filter((r) => !r.pass),
    formatConformanceTable(results),
  ).toEqual([]);
  expect(results).toHaveLength(11);
});
