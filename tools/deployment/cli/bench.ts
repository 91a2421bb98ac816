import { numberArg, parseCliArgs, runCli, UsageError } from '@server/lib/cli-args';
import { removeDataDir, startTestDeployment } from '@server/deployment/test/test-deployment';
import { measureFirstEvent, measureStreamedLoad } from './bench-streaming';
import { measureAuthFlow, measureOwnerSearch } from './bench-auth';
import { measureCluster } from './bench-cluster';
import { doubleText, type FlowCount, flowTimes, tally, type Verdict } from './double-text';

const USAGE = `Usage: npm run bench:deployment -- [--iterations 200] [--warm-up 20] [--threads 100] [--load-step-ms 100] [--first-event-only] [--auth-only]
Serves the embedded deployment on a free port and measures, through the SDK:
  1. the rollback flow (model delay 0): create thread, run 1, run 2 (rollback), join run 2,
     get state, get run 1; p50/p95 over --iterations sequential flows after --warm-up
     flows (a fresh process compiles LangGraph's code and ours over its first few hundred);
  2. double-texting --threads threads at once and checking each ended correctly, on a second
     deployment whose model steps take --load-step-ms, so that run 1 is still active when run 2
     comes (with no delay at all, most runs 1 finish before their run 2 arrives);
  3. the time from runs.stream to its first event (model delay 0), over --iterations calls
     (--first-event-only measures only this);
  --auth-only: the rollback flow of 1. with LANGGRAPH_AUTH_TYPE=noop and langsmith, alternately,
     then one owner's threads searched among 10,000 of 100 owners (custom auth, --iterations);
  4. --threads streamed double-texts at once (run 1 streamed, run 2 streamed with rollback),
     model step --load-step-ms: stream 1 must end within a second, run 1 must be gone.
With --cluster (DATABASE_URI and REDIS_URI set): two replicas on them, in this process; 1. with
run 1 sent to replica A and run 2 to replica B, then the first streamed event read on the other
replica (runs.joinStream, and a protocol v2 events stream after run.start), and 2. with each
thread's runs on both replicas. --processes (with --cluster): the replicas are server processes
(node server/main.ts, the whole app as deployed: compression, request log; no metering, no
tracing), and the same flow is measured on one SQLite server process beside them.
Exit codes: 0 all correct, 1 a wrong outcome or a failure, 2 bad arguments.`;

const isWrong = (v: Verdict) => v === 'surviving rolled-back run' || v === 'foreign messages';

async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    iterations: { type: 'string', default: '200' },
    'warm-up': { type: 'string', default: '20' },
    threads: { type: 'string', default: '100' },
    'load-step-ms': { type: 'string', default: '100' },
    'first-event-only': { type: 'boolean', default: false },
    'auth-only': { type: 'boolean', default: false },
    cluster: { type: 'boolean', default: false },
    processes: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const iterations = numberArg('iterations', values.iterations, 1);
  const warmUp = numberArg('warm-up', values['warm-up'], 0);
  const threads = numberArg('threads', values.threads, 1);
  const loadStepMs = numberArg('load-step-ms', values['load-step-ms'], 0);
  if (values.processes && !values.cluster) throw new UsageError('--processes goes with --cluster');
  if (values.cluster) {
    const form = values.processes ? 'processes' : 'in-process';
    const verdicts = await measureCluster({ iterations, warmUp }, threads, loadStepMs, form);
    return verdicts.some(isWrong) ? 1 : 0;
  }
  if (values['auth-only']) {
    const verdicts = await measureAuthFlow({ iterations, warmUp });
    await measureOwnerSearch(iterations);
    return verdicts.some(isWrong) ? 1 : 0;
  }
  if (values['first-event-only']) {
    await measureFirstEvent(iterations);
    return 0;
  }
  const flowVerdicts = await measureFlow({ iterations, warmUp });
  const loadVerdicts = await measureLoad(threads, loadStepMs);
  await measureFirstEvent(iterations);
  const streamVerdicts = await measureStreamedLoad(threads, loadStepMs);
  const wrong: string[] = [...flowVerdicts, ...loadVerdicts].filter(isWrong);
  const late = streamVerdicts.filter((v) => v === 'stream 1 ended late').length;
  wrong.push(...streamVerdicts.filter((v) => isWrong(v as Verdict)));
  // Reported, not failed: on a saturated machine the rollback itself can take over a second.
  console.log(`Streams of rolled-back runs that did not end within a second: ${late}`);
  console.log(
    `Surviving rolled-back runs: ${wrong.filter((v) => v.startsWith('surviving')).length}`,
  );
  console.log(
    `Threads with foreign messages: ${wrong.filter((v) => v.startsWith('foreign')).length}`,
  );
  return wrong.length === 0 ? 0 : 1;
}

async function measureFlow(flows: FlowCount): Promise<Verdict[]> {
  const deployment = await startTestDeployment({ stepMs: 0 });
  try {
    const flowVerdicts: Verdict[] = [];
    const times = await flowTimes(deployment.client, deployment.client, flows, flowVerdicts);
    console.log(
      `Rollback flow, ${flows.iterations} sequential iterations after ${flows.warmUp} (model delay 0 ms):`,
    );
    console.log(`  ${times}`);
    console.log(`  outcomes: ${tally(flowVerdicts)}`);
    return flowVerdicts;
  } finally {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  }
}

async function measureLoad(threads: number, stepMs: number): Promise<Verdict[]> {
  const deployment = await startTestDeployment({ stepMs });
  try {
    const started = performance.now();
    const verdicts = await Promise.all(
      Array.from({ length: threads }, (_, i) => doubleText(deployment.client, `load ${i}`)),
    );
    const wall = performance.now() - started;
    console.log(`${threads} threads double-texted concurrently (model step ${stepMs} ms):`);
    console.log(`  ${wall.toFixed(0)} ms wall; outcomes: ${tally(verdicts)}`);
    return verdicts;
  } finally {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  }
}

runCli(USAGE, main);
