/** An event as LangGraph's `streamEvents(..., { version: 'v3' })` yields it. */
interface GraphProtocolEvent {
  method: string;
  params: { namespace: string[]; data: unknown };
}

/**
 * Publishes a protocol (v2) run's events to its stream log, named as the official server names
 * them (`<method>` or `<method>|<namespace...>`), for the thread's protocol sessions to frame.
 * Resolves with the last root `values`, the run's result (webhook, stateless wait).
 */
export async function publishProtocolEvents(
  events: AsyncIterable<GraphProtocolEvent>,
  publish: (event: string, data: unknown) => void,
): Promise<unknown> {
  let lastValues: unknown = null;
  for await (const { method, params } of events) {
    const { namespace, data } = params;
    if (method === 'values' && namespace.length === 0) lastValues = data;
    publish(namespace.length > 0 ? `${method}|${namespace.join('|')}` : method, data);
  }
  return lastValues;
}
