import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { usageResponseSchema } from '@contracts/usage/usage-schema';
import { numberArg, parseCliArgs, runCli } from '@server/lib/cli-args';
import { DEMO_API_KEYS } from '@server/usage/seed/demo-keys';
import { rootRunsBatch } from './bench-batch';

const WRITE = { 'x-api-key': DEMO_API_KEYS.admin, 'content-type': 'application/json' };

const USAGE = `Usage: npm run bench:ingest -- [--seconds 20] [--warmup 5] [--concurrency 3] [--batch 1000]
       [--port 6301]
Starts the server (demo data) in a child process on --port, sends /api/v1/runs/batch requests of
--batch root runs from --concurrency senders for --warmup s unmeasured, then --seconds measured,
and prints throughput, latency and time-to-visible as a markdown table.
Exit codes: 0 done, 1 failed, 2 bad arguments.`;

/**
 * `npm run bench:ingest -- [--seconds 20] [--warmup 5] [--concurrency 3] [--batch 1000]`: starts
 * the real server (`server/main.ts`, demo data ≈ 2 M traces) in a child process, then sends
 * `/api/v1/runs/batch` requests of `--batch` root runs from `--concurrency` senders, for
 * `--warmup` seconds unmeasured and then `--seconds` measured, and once a second a one-run probe into a fresh project, timing how long after its
 * acknowledgement the trace shows in the usage API. Prints a markdown table.
 */
async function main(args: string[]): Promise<number> {
  const values = parseCliArgs(args, {
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '3' },
    batch: { type: 'string', default: '1000' },
    port: { type: 'string', default: '6301' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const seconds = numberArg('seconds', values.seconds, 1);
  const warmup = numberArg('warmup', values.warmup, 0);
  const concurrency = Math.floor(numberArg('concurrency', values.concurrency, 1));
  const batchSize = Math.floor(numberArg('batch', values.batch, 1));
  numberArg('port', values.port, 1);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ingest-bench-'));
  const server = await startServer(dataDir, values.port);
  try {
    const workspaceId = await homeWorkspace(server.url);
    const latencies: number[] = [];
    let runs = 0;
    // The first batches after a start load the run-id index from disk: not the sustained rate.
    const warmupEnd = performance.now() + warmup * 1000;
    const deadline = warmupEnd + seconds * 1000;
    const sender = async () => {
      while (performance.now() < deadline) {
        const measured = performance.now() >= warmupEnd;
        const body = rootRunsBatch(batchSize, 'bench-load');
        const started = performance.now();
        const response = await fetch(`${server.url}/api/v1/runs/batch`, {
          method: 'POST',
          headers: WRITE,
          body,
        });
        if (response.status !== 202) throw new Error(`batch: HTTP ${response.status}`);
        await response.arrayBuffer();
        if (!measured) continue;
        latencies.push(performance.now() - started);
        runs += batchSize;
      }
    };
    const cpuAtStart = new Promise<number | null>((resolve) =>
      setTimeout(() => resolve(cpuSeconds(server.pid)), Math.max(0, warmupEnd - performance.now())),
    );
    const [visibility] = await Promise.all([
      probeVisibility(server.url, workspaceId, warmupEnd, deadline),
      ...Array.from({ length: concurrency }, sender),
    ]);
    const elapsed = (performance.now() - warmupEnd) / 1000;
    const [cpuStart, cpuEnd] = [await cpuAtStart, await cpuSeconds(server.pid)];
    const cpuPerBatch =
      cpuStart !== null && cpuEnd !== null ? ((cpuEnd - cpuStart) * 1000) / latencies.length : null;
    const at = (samples: number[], p: number) => {
      const sorted = [...samples].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN;
    };
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    console.log(`| Measure | Value |\n| --- | --- |`);
    console.log(
      `| Root runs ingested | ${runs} in ${elapsed.toFixed(1)} s (${latencies.length} batches of ${batchSize}, ${concurrency} senders) |`,
    );
    console.log(`| Throughput | **${Math.round(runs / elapsed)} runs/s** |`);
    console.log(
      `| Batch latency p50 / p95 / p99 / max | ${[0.5, 0.95, 0.99, 1].map((p) => ms(at(latencies, p))).join(' / ')} |`,
    );
    console.log(
      `| Visible in the usage API after ack, p50 / max (${visibility.length} probes) | ${ms(at(visibility, 0.5))} / ${ms(at(visibility, 1))} |`,
    );
    if (cpuPerBatch !== null) {
      console.log(
        `| Server CPU (user + sys, all threads) per batch | ${ms(cpuPerBatch)}: at most ${Math.round((os.cpus().length * 1000 * batchSize) / cpuPerBatch)} runs/s if the server had every core |`,
      );
    }
    console.log(
      `| Machine | ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end |`,
    );
  } finally {
    server.stop();
    await server.exited;
    await rm(dataDir, { recursive: true, force: true });
  }
  return 0;
}

/** Once a second: one root run into a fresh project, then poll the usage API until it shows. */
async function probeVisibility(url: string, workspaceId: string, from: number, deadline: number) {
  const samples: number[] = [];
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, from - performance.now())));
  while (performance.now() < deadline) {
    const project = `probe-${randomUUID()}`;
    const response = await fetch(`${url}/api/v1/runs/batch`, {
      method: 'POST',
      headers: WRITE,
      body: rootRunsBatch(1, project),
    });
    if (response.status !== 202) throw new Error(`probe: HTTP ${response.status}`);
    const acked = performance.now();
    while ((await projectTraces(url, workspaceId, project)) < 1) {
      if (performance.now() - acked > 10_000) throw new Error('probe never became visible');
    }
    samples.push(performance.now() - acked);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return samples;
}

async function projectTraces(url: string, workspaceId: string, project: string) {
  const start = new Date(new Date().toISOString().slice(0, 10));
  const search = new URLSearchParams({
    start_time: start.toISOString(),
    end_time: new Date(start.getTime() + 86_400_000).toISOString(),
    workspace_ids: workspaceId,
    group_by: 'project',
  });
  const response = await fetch(`${url}/api/v1/orgs/current/billing/granular-usage?${search}`, {
    headers: WRITE,
  });
  const body = usageResponseSchema.parse(await response.json());
  return body.usage
    .filter((record) => record.dimensions.project_name === project)
    .reduce((sum, record) => sum + record.traces, 0);
}

async function homeWorkspace(url: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/workspaces`, { headers: WRITE });
  const [first] = (await response.json()) as { id: string }[];
  if (!first) throw new Error('no workspace');
  return first.id;
}

/** The real server process on a fresh data dir with the demo dataset. */
async function startServer(dataDir: string, port: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      USAGE_CONSOLE_NO_DOTENV: '1',
      HOST: '127.0.0.1',
      PORT: port,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready: (http:\/\/\S+?)\/?\s/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`server exited:\n${output}`)));
  });
  return { url, exited, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/** CPU time a process used so far (Linux /proc; null elsewhere). */
async function cpuSeconds(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / 100 : null;
  } catch {
    return null;
  }
}

runCli(USAGE, main);
