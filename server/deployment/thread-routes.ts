import { Hono } from 'hono';
import { jsonError } from '../http/json-error';
import type { ThreadRecord } from './store/thread-store';
import type { DeploymentDeps } from './deployment-deps';
import { createThreadBody, parseJsonBody } from './wire/request';
import { serializeState, serializeValues } from './wire/serialize';

/** As the platform: `interrupted` when the graph stopped at a breakpoint (`next` is set). */
function threadStatus(busy: boolean, latestRunStatus: string | undefined, hasNext: boolean) {
  if (busy) return 'busy';
  if (latestRunStatus === 'error') return 'error';
  return hasNext ? 'interrupted' : 'idle';
}

/** Threads: create, get, and the current state (`values.messages`). */
export function createThreadRoutes(deps: DeploymentDeps) {
  const { threads, runs, graph } = deps;
  const app = new Hono();

  async function toWireThread(thread: ThreadRecord) {
    const snapshot = await graph.getState({ configurable: { thread_id: thread.thread_id } });
    const latestRun = runs.latest(thread.thread_id);
    const busy = runs.active(thread.thread_id).length > 0;
    return {
      ...thread,
      state_updated_at: snapshot.createdAt ?? thread.updated_at,
      status: threadStatus(busy, latestRun?.status, snapshot.next.length > 0),
      values: serializeValues(snapshot.values),
      interrupts: {},
    };
  }

  app.post('/', async (c) => {
    const body = await parseJsonBody(c, createThreadBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { thread_id, metadata, if_exists } = body.data;
    const created = threads.create(metadata ?? {}, thread_id ?? undefined);
    if (created) return c.json(await toWireThread(created));
    // Only a caller-chosen thread_id can collide with an existing thread.
    const existing = threads.get(thread_id ?? '');
    if (!existing || if_exists !== 'do_nothing') {
      return jsonError(c, 409, `Thread ${thread_id} already exists`);
    }
    return c.json(await toWireThread(existing));
  });

  app.get('/:threadId', async (c) => {
    const thread = threads.get(c.req.param('threadId'));
    if (!thread) return jsonError(c, 404, `Thread ${c.req.param('threadId')} not found`);
    return c.json(await toWireThread(thread));
  });

  app.get('/:threadId/state', async (c) => {
    const thread = threads.get(c.req.param('threadId'));
    if (!thread) return jsonError(c, 404, `Thread ${c.req.param('threadId')} not found`);
    const snapshot = await graph.getState({ configurable: { thread_id: thread.thread_id } });
    return c.json(serializeState(snapshot));
  });

  return app;
}
