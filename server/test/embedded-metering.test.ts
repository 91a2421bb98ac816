import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEPLOYMENT_CSV_COLUMNS,
  deploymentUsageResponseSchema,
} from '@contracts/usage/deployment-usage-schema';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { createDeploymentService } from '../deployment/deployment-service';
import { meteringTargetFromConfig } from '../deployment/metering/run-metering';
import { SF, userInput } from '../deployment/test/test-deployment';
import { testProfile } from '../usage/seed/seed-profiles';
import { parseCsv } from '../usage/test/csv-parse';
import { todayRange } from '../usage/test/ingest-helpers';
import { ADMIN, TEST_WORKSPACE_IDS, USAGE_PATH } from '../usage/test/test-server';
import { createUsageService } from '../usage/usage-service';

/** Usage + deployment as main.ts composes them, the deployment metering to its own URL. */
async function startConsole(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-metering-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const self: { url?: string } = {};
  const usage = await createUsageService(config, { seedProfile: testProfile(), announce: false });
  const deployment = await createDeploymentService(config, {
    meteringTarget: meteringTargetFromConfig(config, () => self.url),
  });
  const server = serve({
    fetch: createApp({ config, services: [usage, deployment] }).fetch,
    hostname: '127.0.0.1',
    port: 0,
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: self.url,
    client: new Client({ apiUrl: `${self.url}/deployment`, callerOptions: { maxRetries: 0 } }),
    stopDeployment: () => deployment.close(),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await usage.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Today's deployments usage of the `agent` project, summed, from the JSON endpoint. */
async function agentMetrics(baseUrl: string) {
  const { start, end } = todayRange();
  const search = new URLSearchParams({ start_time: start, end_time: end, group_by: 'project' });
  search.set('kind', 'langsmith_deployments');
  for (const id of TEST_WORKSPACE_IDS) search.append('workspace_ids', id);
  const response = await fetch(`${baseUrl}${USAGE_PATH}?${search}`, { headers: ADMIN });
  const body = deploymentUsageResponseSchema.parse(await response.json());
  const agent = body.usage.filter((record) => record.dimensions.project_name === 'agent');
  const sum = (key: 'agent_runs' | 'nodes_executed' | 'agent_uptime_seconds') =>
    agent.reduce((total, record) => total + record[key], 0);
  return {
    runs: sum('agent_runs'),
    nodes: sum('nodes_executed'),
    uptime: sum('agent_uptime_seconds'),
  };
}

/** The metrics once they show `runs` runs and stay unchanged for 3 report intervals. */
async function settled(baseUrl: string, runs: number) {
  let last = await agentMetrics(baseUrl);
  await expect
    .poll(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const next = await agentMetrics(baseUrl);
      const stable = next.runs === runs && next.nodes === last.nodes && next.runs === last.runs;
      last = next;
      return stable;
    })
    .toBe(true);
  return last;
}

describe('the embedded deployment meters its runs (kind=langsmith_deployments)', () => {
  let console_: Awaited<ReturnType<typeof startConsole>>;
  beforeAll(async () => {
    console_ = await startConsole({ DEMO_MODEL_STEP_MS: '0', REMOTE_METRICS_INTERVAL_MS: '100' });
  });
  afterAll(async () => {
    await console_?.close();
  });

  it('three runs through the SDK add exactly three agent runs of three nodes each', async () => {
    const { client, baseUrl } = console_;
    const before = await agentMetrics(baseUrl);
    const nodesPerRun: number[] = [];
    let previous = before;
    // Each way a run executes: `graph.stream` (counted from its tasks stream), the same with the
    // client asking for `tasks` too (counted once), `streamEvents` (counted by callbacks).
    const streamModes = [undefined, ['tasks', 'values'], ['events']] as const;
    for (const streamMode of streamModes) {
      const thread = await client.threads.create();
      const run = await client.runs.create(thread.thread_id, 'agent', {
        input: userInput(SF),
        ...(streamMode && { streamMode: [...streamMode] }),
      });
      await client.runs.join(thread.thread_id, run.run_id);
      // A report may go out mid-run (the run counts when it starts): wait for the figures to
      // settle over a few report intervals once the run is joined.
      const now = await settled(baseUrl, previous.runs + 1);
      nodesPerRun.push(now.nodes - previous.nodes);
      previous = now;
    }
    // The demo agent: model, tool, model (three tasks) for the weather question; LangGraph's
    // own `__start__` task is not a node.
    expect(nodesPerRun).toEqual([3, 3, 3]);

    await console_.stopDeployment();
    const after = await agentMetrics(baseUrl);
    expect(after.runs - before.runs).toBe(3);
    // The replica was up for the whole test and reported every 100 ms: it has uptime today.
    expect(after.uptime).toBeGreaterThanOrEqual(1);
    // Stopped: it no longer counts.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await agentMetrics(baseUrl)).toEqual(after);
  });

  it('exports the same figures as CSV with the deployments header', async () => {
    const { baseUrl } = console_;
    const { start, end } = todayRange();
    const search = new URLSearchParams({ start_time: start, end_time: end, group_by: 'project' });
    search.set('kind', 'langsmith_deployments');
    for (const id of TEST_WORKSPACE_IDS) search.append('workspace_ids', id);
    const response = await fetch(`${baseUrl}${USAGE_PATH}/export?${search}`, { headers: ADMIN });
    expect(response.headers.get('content-disposition')).toContain('granular-usage_deployments_');
    const [header = [], ...rows] = parseCsv(await response.text());
    expect(header).toEqual([...DEPLOYMENT_CSV_COLUMNS]);
    const agent = rows.filter((row) => row[header.indexOf('Project Name')] === 'agent');
    const sum = (column: string) =>
      agent.reduce((total, row) => total + Number(row[header.indexOf(column)]), 0);
    const json = await agentMetrics(baseUrl);
    expect([sum('Agent Runs'), sum('Nodes Executed'), sum('Agent Uptime (seconds)')]).toEqual([
      json.runs,
      json.nodes,
      json.uptime,
    ]);
  });
});
