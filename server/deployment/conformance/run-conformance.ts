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

/** Runs every double-texting and streaming case against a deployment through the official SDK, in order. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult[]> {
  const ctx: CaseContext = {
    client: new Client({ apiUrl: options.deploymentUrl, apiKey: options.apiKey }),
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
