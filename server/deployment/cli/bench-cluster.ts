import type { Client } from '@langchain/langgraph-sdk';
import {
  removeDataDir,
  startTestDeployment,
  userInput,
} from '@server/deployment/test/test-deployment';
import { firstProtocolEventVia } from './bench-protocol';
import { doubleText, percentile, tally, type Verdict } from './double-text';

/** Two replicas (two deployment services in this process) on DATABASE_URI + REDIS_URI. */
async function startReplicas(stepMs: number) {
  const { DATABASE_URI, REDIS_URI } = process.env;
  if (!DATABASE_URI || !REDIS_URI) {
    throw new Error('--cluster needs DATABASE_URI and REDIS_URI (scripts/services.sh start)');
  }
  const env = { DATABASE_URI, REDIS_URI };
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
export async function measureCluster(iterations: number, threads: number, stepMs: number) {
  const verdicts: Verdict[] = [];
  const flow = await startReplicas(0);
  try {
    for (let i = 0; i < 20; i += 1) await doubleText(flow.a.client, `warm-up ${i}`, flow.b.client);
    const durations: number[] = [];
    for (let i = 0; i < iterations; i += 1) {
      const started = performance.now();
      verdicts.push(await doubleText(flow.a.client, `flow ${i}`, flow.b.client));
      durations.push(performance.now() - started);
    }
    durations.sort((x, y) => x - y);
    console.log(`Cluster rollback flow, run 1 on A, run 2 + join on B, ${iterations} iterations:`);
    const [p50, p95] = [percentile(durations, 50), percentile(durations, 95)];
    console.log(`  p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
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
  const load = await startReplicas(stepMs);
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
