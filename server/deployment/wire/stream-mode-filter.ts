import type { RunStreamEvent } from '../runs/run-stream-log';

/** Events every reader gets whatever modes it asked for: they frame the run. */
const CONTROL_EVENTS = new Set(['metadata', 'error', 'end']);

/**
 * The stream mode an SSE event was produced by: `values|sub:1` is `values`, `messages/partial`
 * is `messages`, and a bare `messages` event is what the `messages-tuple` mode sends.
 */
export function streamModeOfEvent(event: string): string {
  const base = event.split('|')[0] ?? event;
  if (base === 'messages') return 'messages-tuple';
  return base.startsWith('messages/') ? 'messages' : base;
}

/** `["a","b"]` (JSON, as the SDK sends a list in a query), `a,b`, or one mode. */
export function queryList(values: string[] | undefined): string[] | undefined {
  if (!values || values.length === 0) return undefined;
  return values.flatMap((value) => {
    if (!value.startsWith('[')) return value.split(',').map((part) => part.trim());
    try {
      const parsed: unknown = JSON.parse(value);
      return Array.isArray(parsed) ? parsed.map(String) : [value];
    } catch {
      return [value];
    }
  });
}

/**
 * Keeps the events of the modes a joining client asked for (`joinStream(..., {streamMode})`):
 * a subset of the modes the run was created with. No modes: every event.
 */
export function streamModeFilter(modes: string[] | undefined) {
  if (!modes) return () => true;
  const wanted = new Set(modes);
  return ({ event }: RunStreamEvent) =>
    CONTROL_EVENTS.has(event) || wanted.has(streamModeOfEvent(event));
}

/** Reads `events`, passing on those `keep` accepts. */
export async function* filtered(
  events: AsyncIterable<RunStreamEvent>,
  keep: (event: RunStreamEvent) => boolean,
): AsyncGenerator<RunStreamEvent> {
  for await (const event of events) if (keep(event)) yield event;
}
