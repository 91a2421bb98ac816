import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import { requireUuidParams } from '@server/http/uuid-params';
import type { DeploymentDeps } from '../http/deployment-deps';
import { parseJsonBody } from '../wire/request';
import { createCommandHandlers } from './command-handlers';
import { createProtocolAdapter } from './protocol-adapter';
import { commandSchema, eventFilterSchema } from './protocol-schemas';
import { createRunSessions } from './run-sessions';
import { streamThreadEvents } from './sse-events-route';
import { createThreadChannels } from './thread-channels';
import type { UpgradeEnv } from './websocket-upgrade';
import { serveThreadSocket } from './websocket-session';

/** The base a run's relative webhook resolves against: this request's own URL. */
const baseUrlOf = (c: Context) => c.req.url;

/**
 * Protocol v2, thread-centric, mounted at `/threads` (see the deployment README): commands at
 * `POST /{id}/commands`, events as SSE at `POST /{id}/stream/events`, both over one WebSocket
 * at `GET /{id}/stream/events`. `close` ends every open event stream (shutdown).
 */
export function createProtocol(deps: DeploymentDeps) {
  const adapter = createProtocolAdapter(deps);
  const channels = createThreadChannels();
  const sessions = createRunSessions(channels, adapter);
  const handlers = createCommandHandlers({ adapter, channels, sessions });
  const app = new Hono();
  const threadId = (c: Context) => c.req.param('threadId') ?? '';
  app.use('/:threadId/commands', requireUuidParams('threadId'));
  app.use('/:threadId/stream/events', requireUuidParams('threadId'));

  app.post('/:threadId/commands', async (c) => {
    const body = await parseJsonBody(c, commandSchema);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const command = body.data;
    const ctx = { threadId: threadId(c), command, baseUrl: baseUrlOf(c) };
    // Over SSE a subscription is the filter of an events request; the command holds no state.
    if (command.method === 'subscription.subscribe') {
      return c.json(handlers.success(ctx, { subscription_id: randomUUID(), replayed_events: 0 }));
    }
    if (command.method === 'subscription.unsubscribe') return c.json(handlers.success(ctx, {}));
    return c.json(await handlers.handle(ctx));
  });

  app.post('/:threadId/stream/events', async (c) => {
    const body = await parseJsonBody(c, eventFilterSchema);
    if (!body.ok) return jsonError(c, 422, body.detail);
    return streamThreadEvents(c, channels.of(threadId(c)), body.data);
  });

  app.get('/:threadId/stream/events', (c) => {
    const { upgrade } = (c.env ?? {}) as UpgradeEnv;
    if (!upgrade || c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
      return jsonError(c, 426, 'This path takes a WebSocket (Upgrade: websocket); SSE is POST.');
    }
    const channel = channels.of(threadId(c));
    const baseUrl = baseUrlOf(c);
    upgrade.accept((socket) => serveThreadSocket(socket, { channel, handlers, baseUrl }));
    return c.body(null, 200);
  });

  return {
    app,
    async close(): Promise<void> {
      channels.closeAll();
      await sessions.close();
    },
  };
}
