import { spawn } from 'node:child_process';
import { DEMO_API_KEYS } from '@server/usage/seed/demo-keys';
import { rootRunsBatch } from './bench-batch';
import { percentiles } from './bench-measure';

const WRITE = { 'x-api-key': DEMO_API_KEYS.admin, 'content-type': 'application/json' };

/** A server process (`server/main.ts`) on `env`'s store, no seeding; resolves once it listens. */
async function startReplica(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      ...env,
      USAGE_CONSOLE_NO_DOTENV: '1',
      HOST: '127.0.0.1',
      PORT: '0',
      USAGE_SEED: 'none',
      LOG_LEVEL: 'silent',
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
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface IngestFigures {
  replicas: number;
  runsPerSecond: number;
  batchP50Ms: number;
}

/**
 * Ingestion across `replicas` server processes on one store: `senders` per replica post
 * `/api/v1/runs/batch` of `batch` new root runs each, for `warmup` seconds unmeasured (the
 * DuckDB writer loads its run-id filter on the first batch), then `seconds` measured.
 */
export async function benchIngestion(
  env: Record<string, string>,
  replicas: number,
  options: { seconds: number; warmup: number; batch: number; senders: number },
): Promise<IngestFigures> {
  const servers = await Promise.all(Array.from({ length: replicas }, () => startReplica(env)));
  try {
    const warmupEnd = performance.now() + options.warmup * 1000;
    const deadline = warmupEnd + options.seconds * 1000;
    const latencies: number[] = [];
    const sender = async (url: string) => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const response = await fetch(`${url}/api/v1/runs/batch`, {
          method: 'POST',
          headers: WRITE,
          body: rootRunsBatch(options.batch, 'bench-replicas'),
        });
        if (response.status !== 202) throw new Error(`batch: HTTP ${response.status}`);
        await response.arrayBuffer();
        if (started >= warmupEnd) latencies.push(performance.now() - started);
      }
    };
    await Promise.all(
      servers.flatMap(({ url }) => Array.from({ length: options.senders }, () => sender(url))),
    );
    const elapsed = (performance.now() - warmupEnd) / 1000;
    return {
      replicas,
      runsPerSecond: (latencies.length * options.batch) / elapsed,
      batchP50Ms: percentiles(latencies).p50,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
