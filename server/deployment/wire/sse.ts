import { isBaseMessage } from '@langchain/core/messages';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { outageOf } from '@server/http/dependency-outage';
import type { RunStreamEvent } from '../runs/run-stream-log';
import { toForeignJson } from './foreign-json';
import { serializeMessage } from './serialize';

/**
 * A graph value as plain JSON: LangChain messages become the wire messages the rest of the API
 * sends (`type`, `content`, ...) instead of their `lc` constructor form; errors become
 * `{error, message}`; a loaded graph's (`foreign`) as the official JS server writes it. The replacer reads `this[key]` because `toJSON` has already run on `value`.
 */
export function toWireData(value: unknown, foreign = false): unknown {
  if (foreign) return toForeignJson(value);
  if (value === undefined) return null;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, replaced) {
    const raw = this[key];
    if (isBaseMessage(raw)) return serializeMessage(raw);
    if (raw instanceof Error) return { error: raw.name, message: raw.message };
    return replaced as unknown;
  });
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

interface SseOptions {
  /** Ends the response early (the client went away); `onDisconnect` runs then. */
  onDisconnect?: () => void;
}

/**
 * Answers with `text/event-stream`, writing each event as `event:`, `data:` (JSON) and `id:`,
 * until `events` ends. A client that disconnects aborts the iteration.
 */
export function sseResponse(
  c: Context,
  events: (signal: AbortSignal) => AsyncIterable<RunStreamEvent>,
  options: SseOptions = {},
) {
  return streamSSE(c, async (stream) => {
    const disconnected = new AbortController();
    const onAbort = () => {
      if (disconnected.signal.aborted) return;
      disconnected.abort();
      options.onDisconnect?.();
    };
    stream.onAbort(onAbort);
    c.req.raw.signal.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const { id, event, data } of events(disconnected.signal)) {
        if (stream.aborted || stream.closed) break;
        await stream.writeSSE({ id, event, data: JSON.stringify(data) });
      }
    } catch (error) {
      if (stream.aborted || stream.closed) return;
      // The events' store failed mid-stream: the client must not take the end for the run's.
      const outage = outageOf(error);
      const reason = outage
        ? `${outage.dependency} unavailable: ${outage.reason}`
        : error instanceof Error
          ? error.message
          : String(error);
      console.warn(`Stream interrupted: ${reason}`);
      const data = {
        error: 'StreamInterrupted',
        message: `The event stream was interrupted (${reason}); events may be missing.`,
      };
      await stream.writeSSE({ event: 'error', data: JSON.stringify(data) });
    }
  });
}
