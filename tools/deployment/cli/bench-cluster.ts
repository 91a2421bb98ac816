import { Client } from '@langchain/langgraph-sdk';
import {
  removeDataDir,
  startTestDeployment,
  userInput,
} from '@server/deployment/test/test-deployment';
import {
  readyUrl,
  stopServerProcesses,
  startServerProcess,
  type ServerProcess,
} from '@server/test/server-process';
import { firstProtocolEventVia } from './bench-protocol';
import {
  doubleText,
  type FlowCount,
  flowTimes,
  percentile,
  tally,
  type Verdict,
} from './double-text';

interface Replica {
  /** The deployment API's base URL. */
  url: string;
  client: Client;
}

interface Replicas {
  a: Replica;
  b: Replica;
  stop: () => Promise<void>;
}

/** How the bench runs the deployment: services in this process, or server processes. */
export type ReplicaForm = 'in-process' | 'processes';

function clusterEnv() {
  const { DATABASE_URI, REDIS_URI } = process.env;
  if (!DATABASE_URI || !REDIS_URI) {
    throw new Error('--cluster needs DATABASE_URI and REDIS_URI (scripts/services.sh start)');
  }
  return { DATABASE_URI, REDIS_URI };
}

/** Two replicas on DATABASE_URI + REDIS_URI: deployment services in this process. */
async function startInProcess(stepMs: number): Promise<Replicas> {
  const env = clusterEnv();
  const replicas = await Promise.all([1, 2].map(() => startTestDeployment({ stepMs, env })));
  return {
    a: replicas[0]!,
    b: replicas[1]!,
    async stop() {
      for (const replica of replicas) {
        await replica.stop();
        await removeDataDir(replica.dataDir);
      }
    },
  };
}

/**
 * `count` server processes (`node server/main.ts`: the whole app, its compression and request
 * log) with `env`; no tracing and no metering, as in this process. Stopped with SIGTERM.
 */
async function startServers(count: number, stepMs: number, env: Record<string, string>) {
  const servers: ServerProcess[] = [];
  const stop = () => stopServerProcesses(servers);
  try {
    const replicas = await Promise.all(
      Array.from({ length: count }, async () => {
        const server = await startServerProcess({
          ...env,
          DEMO_MODEL_STEP_MS: String(stepMs),
          DEPLOYMENT_TRACING: 'false',
          // Per-replica DuckDB billing is refused in cluster mode; the bench measures the API.
          REMOTE_METRICS_ROLLUP_ENABLED: 'false',
          // Cluster mode refuses to start open unless told: the bench measures the open API.
          LANGGRAPH_AUTH_TYPE: 'noop',
        });
        servers.push(server);
        const url = `${await readyUrl(server)}deployment`;
        const client = new Client({
          apiUrl: url,
          callerOptions: { maxRetries: 0, maxConcurrency: 64 },
        });
        return { url, client };
      }),
    );
    return { replicas, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startReplicas(stepMs: number, form: ReplicaForm): Promise<Replicas> {
  if (form === 'in-process') return startInProcess(stepMs);
  const { replicas, stop } = await startServers(2, stepMs, clusterEnv());
  return { a: replicas[0]!, b: replicas[1]!, stop };
}

/**
 * Time from `runs.create` on `creator` to the first event read through `runs.joinStream` on
 * `reader` (sent once the create has answered), model delay 0; `iterations` after 20 warm-ups.
 */
async function firstEventVia(creator: Client, reader: Client, iterations: number) {
  const times: number[] = [];
  for (let i = 0; i < iterations + 20; i += 1) {
    const { thread_id } = await creator.threads.create();
    const started = performance.now();
    const run = await creator.runs.create(thread_id, 'agent', { input: userInput('sf') });
    let first: number | undefined;
    for await (const _part of reader.runs.joinStream(thread_id, run.run_id)) {
      first ??= performance.now() - started;
    }
    if (i >= 20 && first !== undefined) times.push(first);
  }
  times.sort((x, y) => x - y);
  return `p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`;
}

/**
 * The rollback flow with run 1 on replica A and run 2 (rollback) plus its join on replica B, then
 * `threads` such double-texts at once, alternating which replica gets run 1.
 */
export async function measureCluster(
  flows: FlowCount,
  threads: number,
  stepMs: number,
  form: ReplicaForm,
) {
  const { iterations } = flows;
  const verdicts: Verdict[] = [];
  console.log(
    form === 'processes'
      ? 'Replicas: server processes (node server/main.ts, the whole app), DEPLOYMENT_TRACING=false.'
      : 'Replicas: two deployment services in this process (no app middleware, no metering).',
  );
  const flow = await startReplicas(0, form);
  try {
    const times = await flowTimes(flow.a.client, flow.b.client, flows, verdicts);
    console.log(
      `Cluster rollback flow, run 1 on A, run 2 + join on B, ${iterations} iterations after ${flows.warmUp}:`,
    );
    console.log(`  ${times}`);
    console.log(`  outcomes: ${tally(verdicts)}`);
    console.log(`First streamed event, runs.create then runs.joinStream, ${iterations} runs:`);
    console.log(
      `  created on A, read on B: ${await firstEventVia(flow.a.client, flow.b.client, iterations)}`,
    );
    console.log(
      `  created on A, read on A: ${await firstEventVia(flow.a.client, flow.a.client, iterations)}`,
    );
    console.log(`First protocol v2 event, run.start then the open events stream's first frame:`);
    const [urlA, urlB] = [flow.a.url, flow.b.url];
    console.log(
      `  started on A, read on B: ${await firstProtocolEventVia(urlA, urlB, iterations)}`,
    );
    console.log(
      `  started on A, read on A: ${await firstProtocolEventVia(urlA, urlA, iterations)}`,
    );
  } finally {
    await flow.stop();
  }
  if (form === 'processes') {
    // The default beside it in the same form: one server process on SQLite.
    const sqlite = await startServers(1, 0, {});
    try {
      const [server] = sqlite.replicas;
      const times = await flowTimes(server!.client, server!.client, flows, verdicts);
      console.log(`SQLite default, one server process, the same flow: ${times}`);
    } finally {
      await sqlite.stop();
    }
  }
  const load = await startReplicas(stepMs, form);
  try {
    const started = performance.now();
    const loadVerdicts = await Promise.all(
      Array.from({ length: threads }, (_, i) =>
        i % 2
          ? doubleText(load.a.client, `load ${i}`, load.b.client)
          : doubleText(load.b.client, `load ${i}`, load.a.client),
      ),
    );
    const wall = performance.now() - started;
    console.log(`${threads} cross-replica double-texts at once (model step ${stepMs} ms):`);
    console.log(`  ${(wall / 1000).toFixed(1)} s wall; outcomes: ${tally(loadVerdicts)}`);
    verdicts.push(...loadVerdicts);
  } finally {
    await load.stop();
  }
  const count = (verdict: Verdict) => verdicts.filter((v) => v === verdict).length;
  console.log(`Surviving rolled-back runs: ${count('surviving rolled-back run')}`);
  console.log(`Threads with foreign messages: ${count('foreign messages')}`);
  return verdicts;
}
