import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { runProtocolCases } from './protocol-cases';
import { formatConformanceTable, runConformance } from './run-conformance';
import { startRoundRobinProxy } from '../cluster/round-robin-proxy';
import { createTestReplicas, replicaServicesMissing } from '@server/deployment/test/test-replicas';

const STEP_MS = 250;
// vitest runs from the repository root, as `npm test` does.
const PROTOCOL_GRAPHS = path.resolve('server/deployment/test/fixtures/graphs/protocol-cases.json');

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

describe.skipIf(replicaServicesMissing)(
  'protocol v2 cases over two replicas taking turns per request (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: STEP_MS });
    let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>> | undefined;

    beforeAll(async () => {
      await cluster.createDatabase();
      // The graphs of the side-by-side run with the official server: `agent` and `approval`.
      const env = { LANGGRAPH_CONFIG: PROTOCOL_GRAPHS, STEP_MS: String(STEP_MS) };
      await Promise.all([cluster.start(env), cluster.start(env)]);
      proxy = await startRoundRobinProxy(cluster.urls);
    });

    afterAll(async () => {
      await proxy?.close();
      await cluster.stop();
    });

    it('passes every ThreadStream case, commands and event streams landing on either replica', async () => {
      const results = await runProtocolCases(proxy?.url ?? '');
      expect(
        results.filter((r) => !r.pass),
        formatConformanceTable(results),
      ).toEqual([]);
      expect(results).toHaveLength(6);
    });
  },
);
