import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { EventFilter, ProtocolEvent } from './protocol-types';
import { matchesFilter, type ThreadChannel } from './thread-channels';

/**
 * `POST /threads/{id}/stream/events`: the thread's events that `filter` selects, as SSE frames
 * (`id:` the event id, `event:` its method, `data:` the whole event), first the kept ones
 * (after `since` when given), then live ones, until the client goes away or the server stops.
 */
export function streamThreadEvents(c: Context, channel: ThreadChannel, filter: EventFilter) {
  return streamSSE(c, async (stream) => {
    const pending: ProtocolEvent[] = [];
    let open = true;
    let wake: (() => void) | undefined;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    const end = () => {
      open = false;
      notify();
    };
    stream.onAbort(end);
    c.req.raw.signal.addEventListener('abort', end, { once: true });
    const detach = channel.attach({
      matches: (event) => matchesFilter(filter, event),
      send: (event) => {
        pending.push(event);
        notify();
      },
      close: end,
    });
    try {
      while (open && !stream.aborted && !stream.closed) {
        const next = pending.shift();
        if (!next) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        await stream.writeSSE({
          id: next.event_id,
          event: next.method,
          data: JSON.stringify(next),
        });
      }
    } finally {
      detach();
    }
  });
}
