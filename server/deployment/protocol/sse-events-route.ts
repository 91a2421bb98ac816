import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { matchesFilter } from './event-filter';
import type { EventFilter } from './protocol-types';
import type { ThreadEventLog } from './thread-event-log';

/** Resolves once `signal` has aborted. */
const abortedOf = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });

/**
 * `POST /threads/{id}/stream/events`: the thread's events that `filter` selects, as SSE frames
 * (`id:` the event id, `event:` its method, `data:` the whole event), first the kept ones
 * (after `since` when given), then live ones, until the client goes away or `shutdown` aborts.
 */
export function streamThreadEvents(
  c: Context,
  {
    log,
    threadId,
    filter,
    shutdown,
  }: {
    log: ThreadEventLog;
    threadId: string;
    filter: EventFilter;
    shutdown: AbortSignal;
  },
) {
  return streamSSE(c, async (stream) => {
    const leave = new AbortController();
    stream.onAbort(() => leave.abort());
    const stop = AbortSignal.any([leave.signal, c.req.raw.signal, shutdown]);
    const stopped = abortedOf(stop);
    const reader = await log.open(threadId);
    let after = filter.since ?? 0;
    try {
      while (!stop.aborted && !stream.aborted && !stream.closed) {
        // Asked for before reading, so an event appended during the read still wakes this loop.
        const next = reader.next();
        const events = await reader.read(after);
        for (const event of events) {
          after = event.seq;
          if (!matchesFilter(filter, event)) continue;
          await stream.writeSSE({
            id: event.event_id,
            event: event.method,
            data: JSON.stringify(event),
          });
        }
        if (events.length === 0) await Promise.race([next, stopped]);
      }
    } finally {
      reader.close();
    }
  });
}
