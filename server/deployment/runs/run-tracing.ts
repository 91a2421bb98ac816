import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { LangChainTracer } from '@langchain/core/tracers/tracer_langchain';
import { Client } from 'langsmith';
import type { Config } from '@server/config';
import { fetchWithoutRedirects } from './no-redirect-fetch';

/** Bounded: the process must stop within 2 s even when the tracing endpoint is gone. */
const FLUSH_TIMEOUT_MS = 300;

/** Where runs are traced: a LangSmith API base (`…/api/v1` or the SDK's root layout) and key. */
export interface TracingTarget {
  apiUrl: string;
  apiKey: string | undefined;
  /** This process's own usage server (which stops listening before the deployment drains). */
  self: boolean;
}

/** What the executor adds to a run's config so the langsmith SDK traces the run. */
export interface RunTracing {
  /**
   * The callback handlers for one run's config: its tracer, into the project named after the
   * run's graph. The run's config also sets `runId` to the deployment's run id, which becomes
   * the trace's root run id. `workspaceId`: the workspace that started the run (langsmith
   * auth), billed for its trace (`x-tenant-id`).
   */
  callbacks(graphId: string, workspaceId?: string): BaseCallbackHandler[];
  /**
   * On shutdown: resolves once every trace sent so far has been delivered to an external
   * endpoint (or failed), or after FLUSH_TIMEOUT_MS. With this process's own usage server there
   * is nothing to wait for: it stops accepting connections before the deployment drains (a run's
   * trace is billed when the run starts, so only updates of the runs just stopped are lost).
   */
  flush(): Promise<void>;
}

/**
 * Where the embedded deployment traces, from the configuration: nowhere when
 * DEPLOYMENT_TRACING=false; LANGSMITH_ENDPOINT (with LANGSMITH_API_KEY) when set; otherwise the
 * usage server of this same process, reached over HTTP at `selfUrl()` (known once listening)
 * with the console's key, exactly as an external deployment would reach it.
 */
export function tracingTargetFromConfig(
  config: Config,
  selfUrl: () => string | undefined,
): (() => TracingTarget | undefined) | undefined {
  if (!config.DEPLOYMENT_TRACING) return undefined;
  const endpoint = config.LANGSMITH_ENDPOINT;
  if (endpoint) {
    return () => ({
      apiUrl: endpoint.replace(/\/+$/, ''),
      apiKey: config.LANGSMITH_API_KEY,
      self: false,
    });
  }
  return () => {
    const url = selfUrl();
    return url
      ? { apiUrl: `${url}/api/v1`, apiKey: config.USAGE_CONSOLE_API_KEY, self: true }
      : undefined;
  };
}

/** The run metadata key naming the workspace that started a run (stamped by langsmith auth). */
export const WORKSPACE_METADATA_KEY = 'workspace_id';

/** The workspace a run's trace is billed to, when one started it. */
export function workspaceOf(run: { metadata: Record<string, unknown> }): string | undefined {
  const workspace = run.metadata[WORKSPACE_METADATA_KEY];
  return typeof workspace === 'string' ? workspace : undefined;
}

/** Sends LangSmith's workspace header with each trace request: the workspace is billed. */
const withTenant =
  (workspaceId: string): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('x-tenant-id', workspaceId);
    return fetchWithoutRedirects(input, { ...init, headers });
  };

/**
 * Traces every run, in a project named after its graph (as a deployment names its tracing
 * project), through one langsmith `Client`, which batches as in any LangChain app. The root
 * run's id is the deployment's run id (set by stream-run.ts), so a resent trace is billed once.
 * The client is made on the first run, when the target's URL is known.
 */
export function createRunTracing(target: () => TracingTarget | undefined): RunTracing {
  // One client per billed workspace ('' for the key's own): each batches its own traces.
  const clients = new Map<string, Client>();
  let external = false;
  const clientFor = (resolved: TracingTarget, workspaceId = '') => {
    const existing = clients.get(workspaceId);
    if (existing) return existing;
    const client = new Client({
      apiUrl: resolved.apiUrl,
      apiKey: resolved.apiKey,
      // The key must never reach a host the endpoint redirects to.
      fetchImplementation: workspaceId ? withTenant(workspaceId) : fetchWithoutRedirects,
    });
    clients.set(workspaceId, client);
    external = !resolved.self;
    return client;
  };
  return {
    callbacks(graphId, workspaceId) {
      const resolved = target();
      return resolved
        ? [new LangChainTracer({ projectName: graphId, client: clientFor(resolved, workspaceId) })]
        : [];
    },
    async flush() {
      if (clients.size === 0 || !external) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...clients.values()].map((client) => client.awaitPendingTraceBatches())),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
    },
  };
}
