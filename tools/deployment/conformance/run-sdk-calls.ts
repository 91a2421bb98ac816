import { connectToDeployment, type ConformanceResult } from './run-conformance';
import type { CallArea, CallContext } from './sdk-call-kit';
import { SDK_CALLS } from './sdk-calls';

export interface SdkCallsOptions {
  deploymentUrl: string;
  apiKey?: string;
  graphId?: string;
  /** A call that neither answers nor fails within this time fails (a stream that never ends). */
  timeoutMs?: number;
}

export interface SdkCallResult extends ConformanceResult {
  area: CallArea;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs the common SDK calls, in order, against a deployment: how much of the API a real client
 * can use. Unlike the conformance cases, these need no particular graph, only a messages graph.
 */
export async function runSdkCalls(options: SdkCallsOptions): Promise<SdkCallResult[]> {
  const ctx: CallContext = {
    client: await connectToDeployment(options.deploymentUrl, options.apiKey),
    graphId: options.graphId ?? 'agent',
    ids: {},
  };
  const results: SdkCallResult[] = [];
  for (const call of SDK_CALLS) {
    const started = performance.now();
    const name = `${call.area}.${call.name}`;
    try {
      await withTimeout(call.run(ctx), options.timeoutMs ?? 15_000);
      results.push({ area: call.area, name, pass: true, reason: '', ms: elapsed(started) });
    } catch (error) {
      const reason = error instanceof Error ? error.message.slice(0, 200) : String(error);
      results.push({ area: call.area, name, pass: false, reason, ms: elapsed(started) });
    }
  }
  return results;
}

const elapsed = (started: number) => Math.round(performance.now() - started);
