import type { Hono } from 'hono';

/** A route the app serves: `GET /deployment/threads/:threadId/state`. */
export interface FuzzRoute {
  method: string;
  path: string;
}

/**
 * Ids of resources that exist, by path parameter name (`threadId`, `runId`, ...), so that most
 * requests reach a handler's real work instead of its "not found".
 */
export type FuzzIds = Record<string, string[]>;

/** Every concrete route of the app (middleware entries, `ALL` and `*` paths, left out). */
export function routesOf(app: Hono): FuzzRoute[] {
  const seen = new Set<string>();
  return app.routes
    .filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
    .filter((route) => {
      const key = `${route.method} ${route.path}`;
      return !seen.has(key) && Boolean(seen.add(key));
    })
    .map(({ method, path }) => ({ method, path }));
}

async function post(
  baseUrl: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`fuzz set-up: POST ${path} answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

const QUESTION = { messages: [{ role: 'user', content: 'weather in sf?' }] };

/**
 * Creates what the routes name, through the API itself: threads with finished runs (so they have
 * checkpoints), assistants, a cron and a store item; returns their ids by parameter name.
 */
export async function createFuzzIds(baseUrl: string, workspaceIds: string[]): Promise<FuzzIds> {
  const threadIds: string[] = [];
  const runIds: string[] = [];
  const checkpointIds: string[] = [];
  for (let i = 0; i < 4; i += 1) {
    const thread = await post(baseUrl, '/deployment/threads', { metadata: { fuzz: i } });
    const threadId = String(thread.thread_id);
    threadIds.push(threadId);
    const run = await post(baseUrl, `/deployment/threads/${threadId}/runs`, {
      assistant_id: 'agent',
      input: QUESTION,
    });
    runIds.push(String(run.run_id));
    await fetch(`${baseUrl}/deployment/threads/${threadId}/runs/${String(run.run_id)}/join`);
    const state = await (await fetch(`${baseUrl}/deployment/threads/${threadId}/state`)).json();
    const checkpoint = (state as { checkpoint?: { checkpoint_id?: string } }).checkpoint;
    if (checkpoint?.checkpoint_id) checkpointIds.push(checkpoint.checkpoint_id);
  }
  const assistant = await post(baseUrl, '/deployment/assistants', { graph_id: 'agent' });
  const cron = await post(baseUrl, `/deployment/threads/${threadIds[0]}/runs/crons`, {
    assistant_id: 'agent',
    schedule: '0 0 1 1 *',
    input: QUESTION,
  });
  await fetch(`${baseUrl}/deployment/store/items`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ namespace: ['fuzz'], key: 'k', value: { v: 1 } }),
  });
  return {
    threadId: threadIds,
    runId: runIds,
    checkpointId: checkpointIds,
    assistantId: ['agent', String(assistant.assistant_id)],
    cronId: [String(cron.cron_id)],
    namespace: ['fuzz'],
    workspaceId: workspaceIds,
  };
}

/** Which API a path belongs to, for the per-API counts. */
export function apiOf(path: string): string {
  if (path.startsWith('/api/v1/')) return 'usage API (/api/v1)';
  if (path.startsWith('/runs') || path.startsWith('/info')) return 'usage ingestion (root)';
  if (path.startsWith('/deployment/')) return 'deployment API';
  if (path.startsWith('/_console/usage/')) return 'console proxy: usage';
  if (path.startsWith('/_console/deployment/')) return 'console proxy: deployment';
  return 'other (/healthz, /_console/config)';
}

/** A 404 from routing (no route, or the console's allow-list), not from a handler. */
export function isRoutingMiss(status: number, body: string): boolean {
  if (status !== 404) return false;
  try {
    const { detail } = JSON.parse(body) as { detail?: unknown };
    return typeof detail === 'string' && /^Not Found(: |$)/.test(detail);
  } catch {
    return false;
  }
}

/** Refused by the browser checks before any route ran: a foreign Origin or Host, a non-JSON body. */
export function isGuardRefusal(status: number, body: string): boolean {
  if (status === 415) return true;
  if (status !== 403) return false;
  try {
    const { detail } = JSON.parse(body) as { detail?: unknown };
    return typeof detail === 'string' && /^(Cross-origin|Cross-site|Host ")/.test(detail);
  } catch {
    return false;
  }
}
