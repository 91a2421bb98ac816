import { randomUUID } from 'node:crypto';
import { sendCommand } from '@server/deployment/test/protocol-clients';
import { percentile } from './double-text';

const WARM_UPS = 20;

/**
 * Time from a `run.start` command sent to `commandsUrl` to the first event (the run's root
 * `running`) read on a protocol v2 events stream already open at `eventsUrl`, model delay 0;
 * each run is read to its `completed` before the next. `iterations` after 20 warm-ups.
 */
export async function firstProtocolEventVia(
  commandsUrl: string,
  eventsUrl: string,
  iterations: number,
) {
  const times: number[] = [];
  for (let i = 0; i < iterations + WARM_UPS; i += 1) {
    const threadId = randomUUID();
    const leave = new AbortController();
    const response = await fetch(`${eventsUrl}/threads/${threadId}/stream/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channels: ['lifecycle'], namespaces: [[]], depth: 0 }),
      signal: leave.signal,
    });
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!reader) throw new Error(`events stream answered ${response.status} without a body`);
    const started = performance.now();
    await sendCommand(commandsUrl, threadId, {
      id: 1,
      method: 'run.start',
      params: { assistant_id: 'agent', input: { messages: [{ role: 'user', content: 'sf' }] } },
    });
    let text = '';
    let first: number | undefined;
    while (!text.includes('"completed"')) {
      const { value, done } = await reader.read();
      if (done) break;
      first ??= performance.now() - started;
      text += value;
    }
    leave.abort();
    if (i >= WARM_UPS && first !== undefined) times.push(first);
  }
  times.sort((x, y) => x - y);
  return `p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`;
}
