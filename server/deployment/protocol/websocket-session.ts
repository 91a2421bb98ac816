import { randomUUID } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import type { CommandHandlers } from './command-handlers';
import type { CommandResponse, EventFilter } from './protocol-types';
import { commandSchema, subscribeParams, unsubscribeParams } from './protocol-schemas';
import { matchesFilter, type ThreadChannel } from './thread-channels';

interface SocketDeps {
  channel: ThreadChannel;
  handlers: CommandHandlers;
  baseUrl: string;
}

const parseJson = (data: RawData): unknown => {
  try {
    return JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
  } catch {
    return undefined;
  }
};

/**
 * `GET /threads/{id}/stream/events` as a WebSocket: commands come in as JSON text frames and
 * their answers go out on the same socket, with the events of the socket's subscriptions.
 * An event matching several subscriptions is sent once (the SDK fans it out by `event_id`).
 * A subscription first gets the kept events it selects, right after its answer. Commands are
 * handled one at a time, in the order they arrive.
 */
export function serveThreadSocket(socket: WebSocket, { channel, handlers, baseUrl }: SocketDeps) {
  const subscriptions = new Map<string, EventFilter>();
  const sendJson = (message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const detach = channel.attach({
    matches: (event) => [...subscriptions.values()].some((filter) => matchesFilter(filter, event)),
    send: sendJson,
    close: () => socket.close(1001, 'server stopping'),
  });

  /** Subscribes: the answer first (the SDK registers the id then), then the kept events. */
  function subscribe(id: number, params: unknown): void {
    const ctx = {
      threadId: channel.threadId,
      command: { id, method: 'subscription.subscribe' },
      baseUrl,
    };
    const parsed = subscribeParams.safeParse(params ?? {});
    if (!parsed.success) {
      sendJson(
        handlers.failure(
          ctx,
          'invalid_argument',
          'subscription.subscribe requires a non-empty channels array of protocol channels.',
        ),
      );
      return;
    }
    const subscriptionId = randomUUID();
    const replay = channel.replay(parsed.data);
    sendJson(
      handlers.success(ctx, { subscription_id: subscriptionId, replayed_events: replay.length }),
    );
    replay.forEach(sendJson);
    subscriptions.set(subscriptionId, parsed.data);
  }

  function unsubscribe(id: number, params: unknown): CommandResponse {
    const ctx = {
      threadId: channel.threadId,
      command: { id, method: 'subscription.unsubscribe' },
      baseUrl,
    };
    const parsed = unsubscribeParams.safeParse(params ?? {});
    if (!parsed.success) {
      return handlers.failure(
        ctx,
        'invalid_argument',
        'subscription.unsubscribe requires a subscription_id.',
      );
    }
    if (!subscriptions.delete(parsed.data.subscription_id)) {
      return handlers.failure(
        ctx,
        'no_such_subscription',
        `Unknown subscription: ${parsed.data.subscription_id}`,
      );
    }
    return handlers.success(ctx, {});
  }

  async function handle(data: RawData) {
    const command = commandSchema.safeParse(parseJson(data));
    if (!command.success) {
      sendJson({
        type: 'error',
        id: null,
        error: 'invalid_argument',
        message: 'Protocol commands must be JSON with an integer id and a string method.',
      });
      return;
    }
    const { id, method, params } = command.data;
    if (method === 'subscription.subscribe') return subscribe(id, params);
    if (method === 'subscription.unsubscribe') return sendJson(unsubscribe(id, params));
    sendJson(await handlers.handle({ threadId: channel.threadId, command: command.data, baseUrl }));
  }

  let queue = Promise.resolve();
  socket.on('message', (data) => {
    queue = queue.then(() => handle(data)).catch(() => socket.close(1011, 'command failed'));
  });
  socket.on('close', () => {
    subscriptions.clear();
    detach();
  });
}
