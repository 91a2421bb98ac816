import { Client } from '@langchain/langgraph-sdk';
import { CONFORMANCE_CASES } from './conformance-cases';
import type { CaseContext } from './conformance-kit';
import { STREAMING_CASES } from './streaming-cases';

export interface ConformanceOptions {
  deploymentUrl: string;
  apiKey?: string;
  assistantId?: string;
  /** When run 2 is sent in the "later" rollback variant; default 2000 ms, as in the issue. */
  laterMs?: number;
}

export interface ConformanceResult {
  name: string;
  pass: boolean;
  reason: string;
  ms: number;
}

/** Thrown when the deployment cannot be reached at all: no case can say anything then. */
export class UnreachableDeployment extends Error {
  override name = 'UnreachableDeployment';
}

/** Whether `error` (or a cause) is a failure to connect, not an HTTP answer. */
function isConnectionFailure(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code ?? '';
    if (/^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|UND_ERR_)/.test(code)) {
      return true;
    }
    if (current.message === 'fetch failed') return true;
  }
  return false;
}

/** One plain request first, so a wrong URL gives one clear message instead of N failures. */
async function checkReachable(deploymentUrl: string): Promise<void> {
  const url = `${deploymentUrl.replace(/\/+$/, '')}/info`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new UnreachableDeployment(`Cannot reach the deployment at ${url}: ${reason}`);
  }
}

/**
 * An SDK client for a checker run (conformance, SDK calls): the deployment is checked reachable
 * first (`UnreachableDeployment` otherwise), and the client never retries, so a refused
 * connection stops the run at once instead of after a back-off.
 */
export async function connectToDeployment(deploymentUrl: string, apiKey?: string): Promise<Client> {
  await checkReachable(deploymentUrl);
  return new Client({ apiUrl: deploymentUrl, apiKey, callerOptions: { maxRetries: 0 } });
}

/**
 * Runs every double-texting and streaming case against a deployment through the official SDK, in order. Stops
 * with UnreachableDeployment when the deployment cannot be reached, before or between cases.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult[]> {
  const ctx: CaseContext = {
    client: await connectToDeployment(options.deploymentUrl, options.apiKey),
    assistantId: options.assistantId ?? 'agent',
    laterMs: options.laterMs ?? 2000,
  };
  const results: ConformanceResult[] = [];
  for (const testCase of [...CONFORMANCE_CASES, ...STREAMING_CASES]) {
    const started = performance.now();
    try {
      await testCase.run(ctx);
      results.push({ name: testCase.name, pass: true, reason: '', ms: elapsed(started) });
    } catch (error) {
      if (isConnectionFailure(error)) {
        throw new UnreachableDeployment(
          `Lost the connection to ${options.deploymentUrl} during "${testCase.name}".`,
        );
      }
      const reason = error instanceof Error ? error.message : String(error);
      results.push({ name: testCase.name, pass: false, reason, ms: elapsed(started) });
    }
  }
  return results;
}

const elapsed = (started: number) => Math.round(performance.now() - started);

/** A plain-text PASS/FAIL table, one line per case, the reason under each failure. */
export function formatConformanceTable(results: ConformanceResult[]): string {
  const width = Math.max(...results.map((r) => r.name.length));
  const lines = results.map((r) => {
    const line = `${r.pass ? 'PASS' : 'FAIL'}  ${r.name.padEnd(width)}  ${String(r.ms).padStart(6)} ms`;
    return r.pass ? line : `${line}\n      -> ${r.reason}`;
  });
  const failed = results.filter((r) => !r.pass).length;
  const summary = `${results.length - failed}/${results.length} passed`;
  return [`RESULT  CASE${' '.repeat(Math.max(0, width - 4))}  TIME`, ...lines, summary].join('\n');
}
