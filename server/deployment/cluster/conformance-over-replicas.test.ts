import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatConformanceTable, runConformance } from '../conformance/run-conformance';
import { startRoundRobinProxy } from './round-robin-proxy';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

const STEP_MS = 250;

describe.skipIf(replicaServicesMissing)(
  'conformance over two replicas taking turns per request (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: STEP_MS });
    let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>> | undefined;

    beforeAll(async () => {
      await cluster.createDatabase();
      await Promise.all([cluster.start(), cluster.start()]);
      proxy = await startRoundRobinProxy(cluster.urls);
    });

    afterAll(async () => {
      await proxy?.close();
      await cluster.stop();
    });

    it('passes every double-texting and streaming case', async () => {
      // "Later" lands mid-tool, as in the one-process conformance test.
      const results = await runConformance({
        deploymentUrl: proxy?.url ?? '',
        laterMs: STEP_MS * 1.5,
      });
      expect(
        results.filter((r) => !r.pass),
        formatConformanceTable(results),
      ).toEqual([]);
      expect(results).toHaveLength(11);
    });
  },
);
