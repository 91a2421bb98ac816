import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import { requireUuidParams } from '@server/http/uuid-params';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import { parseJsonBody } from '../wire/request';
import { createCommandHandlers } from './command-handlers';
import { createProtocolAdapter } from './protocol-adapter';
import { commandSchema, eventFilterSchema } from './protocol-schemas';
import { createRunSessions } from './run-sessions';
import { streamThreadEvents } from './sse-events-route';
import type { ThreadEventLog } from './thread-event-log';
import type { UpgradeEnv } from './websocket-upgrade';
import { serveThreadSocket } from './websocket-session';
import { runOwnerOf } from '../auth/auth-door';

/** The base a run's relative webhook resolves against: this request's own URL. */
const baseUrlOf = (c: Context) => c.req.url;

/**
 * Protocol v2, thread-centric, mounted at `/threads` (see docs/api.md): commands at
 * `POST /{id}/commands`, events as SSE at `POST /{id}/stream/events`, both over one WebSocket
 * at `GET /{id}/stream/events`. A thread's events go to `log` (in this process, or in Redis in
 * cluster mode). `close` ends every open event stream (shutdown).
 */
export function createProtocol(deps: DeploymentDeps, log: ThreadEventLog) {
  const adapter = createProtocolAdapter(deps);
  const sessions = createRunSessions(log, adapter);
  const handlers = createCommandHandlers({ adapter, log, sessions });
  const shutdown = new AbortController();
  const app = new Hono();
  const threadId = (c: Context) => c.req.param('threadId') ?? '';
  app.use('/:threadId/commands', requireUuidParams('threadId'));
  app.use('/:threadId/stream/events', requireUuidParams('threadId'));

  app.post('/:threadId/commands', async (c) => {
    const body = await parseJsonBody(c, commandSchema);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const command = body.data;
    const ctx = { threadId: threadId(c), command, baseUrl: baseUrlOf(c), owner: runOwnerOf(c) };
    // Over SSE a subscription is the filter of an events request; the command holds no state.
    if (command.method === 'subscription.subscribe') {
      return c.json(
        await handlers.success(ctx, { subscription_id: randomUUID(), replayed_events: 0 }),
      );
    }
    if (command.method === 'subscription.unsubscribe') {
      return c.json(await handlers.success(ctx, {}));
    }
    return c.json(await handlers.handle(ctx));
  });

  app.post('/:threadId/stream/events', async (c) => {
    const body = await parseJsonBody(c, eventFilterSchema);
    if (!body.ok) return jsonError(c, 422, body.detail);
    return streamThreadEvents(c, {
      log,
      threadId: threadId(c),
      filter: body.data,
      shutdown: shutdown.signal,
    });
  });

  app.get('/:threadId/stream/events', (c) => {
    const { upgrade } = (c.env ?? {}) as UpgradeEnv;
    if (!upgrade || c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      return jsonError(c, 426, 'This path takes a WebSocket (Upgrade: websocket); SSE is POST.');
    }
    const deps = {
      log,
      threadId: threadId(c),
      handlers,
      baseUrl: baseUrlOf(c),
      owner: runOwnerOf(c),
    };
    upgrade.accept((socket) => serveThreadSocket(socket, { ...deps, shutdown: shutdown.signal }));
    return c.body(null, 200);
  });

  return {
    app,
    async close(): Promise<void> {
      shutdown.abort();
      await sessions.close();
      log.close();
    },
  };
}
