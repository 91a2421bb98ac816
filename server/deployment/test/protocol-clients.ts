import {
  ProtocolSseTransportAdapter,
  ProtocolWebSocketTransportAdapter,
  ThreadStream,
} from '@langchain/langgraph-sdk-115';
import WebSocket from 'ws';

/** A protocol v2 event as a raw client reads it off the wire. */
export interface WireEvent {
  type: 'event';
  event_id: string;
  seq: number;
  method: string;
  params: { namespace: string[]; node?: string; data: Record<string, unknown> };
}

/** The official SDK's `ThreadStream` on a thread, over SSE or over a WebSocket (`ws` in Node). */
export function openThreadStream(
  apiUrl: string,
  threadId: string,
  transport: 'sse' | 'websocket',
  assistantId = 'agent',
) {
  const adapter =
    transport === 'sse'
      ? new ProtocolSseTransportAdapter({ apiUrl, threadId })
      : new ProtocolWebSocketTransportAdapter({
          apiUrl,
          threadId,
          // Node 20 has no global WebSocket; `ws` speaks the same event API.
          webSocketFactory: (url) => new WebSocket(url) as unknown as globalThis.WebSocket,
        });
  return new ThreadStream(adapter, { assistantId });
}

/** Collects everything a `ThreadStream` shows: values snapshots and the text of each message. */
export function watchThread(thread: ThreadStream) {
  const seen = { values: [] as unknown[], texts: [] as string[] };
  void (async () => {
    for await (const values of thread.values) seen.values.push(values);
  })();
  void (async () => {
    for await (const message of thread.messages) seen.texts.push(String(await message.text));
  })();
  return seen;
}

/** Resolves with `promise`, or rejects after `ms` saying what it waited for. */
export function within<T>(promise: PromiseLike<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    Promise.resolve(promise),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no ${what} in ${ms} ms`)), ms),
    ),
  ]);
}

/**
 * Reads `POST /threads/{id}/stream/events` with `filter` as a raw SSE client until `done` says
 * so (or `timeoutMs` passes), then disconnects. The events, parsed from the `data:` lines.
 */
export async function readEvents(
  apiUrl: string,
  threadId: string,
  filter: Record<string, unknown>,
  done: (events: WireEvent[]) => boolean,
  timeoutMs = 10_000,
): Promise<WireEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const events: WireEvent[] = [];
  try {
    const response = await fetch(`${apiUrl}/threads/${threadId}/stream/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(filter),
      signal: controller.signal,
    });
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (reader && !done(events)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += value;
      const frames = text.split('\n\n');
      text = frames.pop() ?? '';
      for (const frame of frames) {
        const data = frame.split('\n').find((line) => line.startsWith('data:'));
        if (data) events.push(JSON.parse(data.slice(5)) as WireEvent);
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

/** Every channel protocol v2 streams: a raw reader on all of them sees every event. */
export const ALL_CHANNELS = [
  'values',
  'updates',
  'messages',
  'tools',
  'custom',
  'lifecycle',
  'input',
  'checkpoints',
  'tasks',
];

/** A root lifecycle event's `event` (`running`, `completed`, ...), else `undefined`. */
export const rootLifecycle = (event: WireEvent) =>
  event.method === 'lifecycle' && event.params.namespace.length === 0
    ? String(event.params.data.event)
    : undefined;

/** The root lifecycles of a stream, in order: `running, completed, running, ...`. */
export const rootLifecycles = (events: WireEvent[]) =>
  events.flatMap((event) => rootLifecycle(event) ?? []);

/** A `readEvents` stop condition: `n` runs have completed. */
export const completedTimes = (n: number) => (events: WireEvent[]) =>
  events.filter((event) => rootLifecycle(event) === 'completed').length >= n;

/** POSTs one command to `/threads/{id}/commands`; the HTTP status and the JSON answer. */
export async function sendCommand(apiUrl: string, threadId: string, command: unknown) {
  const response = await fetch(`${apiUrl}/threads/${threadId}/commands`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof command === 'string' ? command : JSON.stringify(command),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
