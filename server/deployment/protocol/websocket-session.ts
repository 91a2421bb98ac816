import { randomUUID } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import { readJsonText } from '../wire/json-limits';
import type { CommandHandlers } from './command-handlers';
import { matchesFilter } from './event-filter';
import type { CommandResponse, EventFilter } from './protocol-types';
import { commandSchema, subscribeParams, unsubscribeParams } from './protocol-schemas';
import type { ThreadEventLog, ThreadReader } from './thread-event-log';
import type { RunOwner } from '../auth/auth-types';

interface SocketDeps {
  log: ThreadEventLog;
  threadId: string;
  handlers: CommandHandlers;
  baseUrl: string;
  /** The caller who opened the socket: the owner of the runs its commands start. */
  owner?: RunOwner;
  /** Aborts at shutdown: the socket closes. */
  shutdown: AbortSignal;
}

interface Subscription {
  filter: EventFilter;
  /** The last `seq` its replay covered: live events after it are its own. */
  from: number;
}

/** A command frame's JSON; none when it is not JSON or breaks the body limits (json-limits). */
const parseJson = (data: RawData): unknown => {
  const json = readJsonText(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
  return json.ok ? json.value : undefined;
};

/** Every kept event of the thread a fresh reader sees, page by page. */
async function readAll(reader: ThreadReader) {
  const events = [];
  for (let page = await reader.read(0); page.length > 0;) {
    events.push(...page);
    page = await reader.read(page.at(-1)?.seq ?? 0);
  }
  return events;
}

/**
 * `GET /threads/{id}/stream/events` as a WebSocket: commands come in as JSON text frames and
 * their answers go out on the same socket, with the events of the socket's subscriptions.
 * An event matching several subscriptions is sent once (the SDK fans it out by `event_id`).
 * A subscription first gets the kept events it selects, right after its answer. Commands are
 * handled one at a time, in the order they arrive.
 *
 * One loop reads the thread's live events for all the socket's subscriptions. A subscription's
 * replay and that loop's reads take turns (`exclusive`), so each event reaches a subscription
 * once: through its replay, or live after it.
 */
export function serveThreadSocket(
  socket: WebSocket,
  { log, threadId, handlers, baseUrl, owner, shutdown }: SocketDeps,
) {
  const subscriptions = new Map<string, Subscription>();
  const closed = new AbortController();
  const stop = AbortSignal.any([closed.signal, shutdown]);
  let turn = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const result = turn.then(task);
    turn = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };
  const sendJson = (message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const ctxOf = (id: number, method: string) => ({
    threadId,
    command: { id, method },
    baseUrl,
  });

  const closedOrStopped = new Promise<void>((resolve) => {
    if (stop.aborted) resolve();
    stop.addEventListener('abort', () => resolve(), { once: true });
  });
  /** The socket's live reader, opened by its first subscription. */
  let live: ThreadReader | undefined;

  /** Delivers the live events after `after` (the first subscription's replay) until the end. */
  async function followLive(reader: ThreadReader, after: number) {
    let position = after;
    while (!stop.aborted) {
      const next = reader.next();
      const count = await exclusive(async () => {
        const events = await reader.read(position);
        for (const event of events) {
          position = event.seq;
          const wanted = [...subscriptions.values()].some(
            (sub) => sub.from < event.seq && matchesFilter(sub.filter, event),
          );
          if (wanted) sendJson(event);
        }
        return events.length;
      });
      if (count === 0) await Promise.race([next, closedOrStopped]);
    }
  }

  /** Subscribes: the answer first (the SDK registers the id then), then the kept events. */
  async function subscribe(id: number, params: unknown) {
    const ctx = ctxOf(id, 'subscription.subscribe');
    const parsed = subscribeParams.safeParse(params ?? {});
    if (!parsed.success) {
      sendJson(
        await handlers.failure(
          ctx,
          'invalid_argument',
          'subscription.subscribe requires a non-empty channels array of protocol channels.',
        ),
      );
      return;
    }
    const filter = parsed.data;
    const subscriptionId = randomUUID();
    await exclusive(async () => {
      const first = live === undefined;
      live ??= await log.open(threadId);
      const reader = await log.open(threadId);
      const kept = await readAll(reader).finally(() => reader.close());
      const replay = kept.filter((event) => matchesFilter(filter, event));
      sendJson(
        await handlers.success(ctx, {
          subscription_id: subscriptionId,
          replayed_events: replay.length,
        }),
      );
      replay.forEach(sendJson);
      const through = kept.at(-1)?.seq ?? 0;
      subscriptions.set(subscriptionId, { filter, from: through });
      if (first) {
        const reader = live;
        followLive(reader, through)
          .catch(() => socket.close(1011, 'event stream failed'))
          .finally(() => reader.close());
      }
    });
  }

  async function unsubscribe(id: number, params: unknown): Promise<CommandResponse> {
    const ctx = ctxOf(id, 'subscription.unsubscribe');
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
    if (method === 'subscription.unsubscribe') return sendJson(await unsubscribe(id, params));
    sendJson(await handlers.handle({ threadId, command: command.data, baseUrl, owner }));
  }

  let queue = Promise.resolve();
  socket.on('message', (data) => {
    queue = queue.then(() => handle(data)).catch(() => socket.close(1011, 'command failed'));
  });
  const stopping = () => socket.close(1001, 'server stopping');
  shutdown.addEventListener('abort', stopping, { once: true });
  socket.on('close', () => {
    subscriptions.clear();
    closed.abort();
    shutdown.removeEventListener('abort', stopping);
  });
}
