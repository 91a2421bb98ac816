import { Client as Client115 } from '@langchain/langgraph-sdk-115';
import { describe, expect, it } from 'vitest';
import { collect, runIdOf } from './stream-parts';
import { SF, SF_RUN, conversation, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const HEARTBEAT_MS = 40;
// Each model step outlasts several heartbeat intervals, so a working stream shows some between events.
const deployment = useTestDeployment({
  stepMs: 200,
  env: { SSE_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_MS) },
});

/** One SSE frame off the wire: a `: heartbeat` comment or an event with its id. */
type Frame = { kind: 'heartbeat' } | { kind: 'event'; event: string; id: string | undefined };

function parseFrame(frame: string): Frame {
  if (frame === ': heartbeat') return { kind: 'heartbeat' };
  const field = (name: string) =>
    frame
      .split('\n')
      .find((line) => line.startsWith(`${name}:`))
      ?.slice(name.length + 1)
      .trim();
  return { kind: 'event', event: field('event') ?? '', id: field('id') };
}

/** Reads an SSE response as a raw client, until it ends or `enough` holds, then disconnects. */
async function readFrames(
  path: string,
  init: RequestInit = {},
  enough: (frames: Frame[]) => boolean = () => false,
): Promise<Frame[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  const frames: Frame[] = [];
  try {
    const response = await fetch(`${deployment.url}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json' },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (reader && !enough(frames)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      const complete = text.split('\n\n');
      text = complete.pop() ?? '';
      frames.push(...complete.map(parseFrame));
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return frames;
}

const eventsOf = (frames: Frame[]) => frames.filter((frame) => frame.kind === 'event');

/** Heartbeats that arrived after the first event and before the last one. */
function heartbeatsBetweenEvents(frames: Frame[]): number {
  const first = frames.findIndex((frame) => frame.kind === 'event');
  const last = frames.findLastIndex((frame) => frame.kind === 'event');
  return frames.slice(first, last).filter((frame) => frame.kind === 'heartbeat').length;
}

const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

describe('SSE heartbeats while a model step is slow', () => {
  it('a run stream carries heartbeat comments between its events', async () => {
    const { thread_id } = await deployment.client.threads.create();
    const frames = await readFrames(
      `/threads/${thread_id}/runs/stream`,
      post({ assistant_id: 'agent', input: userInput(SF) }),
    );
    expect(eventsOf(frames).map((frame) => frame.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(heartbeatsBetweenEvents(frames)).toBeGreaterThanOrEqual(3);
  });

  it('a stateless run stream and a join of a running run carry them too', async () => {
    const stateless = await readFrames(
      '/runs/stream',
      post({ assistant_id: 'agent', input: userInput(SF) }),
    );
    expect(heartbeatsBetweenEvents(stateless)).toBeGreaterThanOrEqual(3);

    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const run = await client.runs.create(thread_id, 'agent', { input: userInput(SF) });
    const joined = await readFrames(`/threads/${thread_id}/runs/${run.run_id}/stream`);
    expect(eventsOf(joined).at(-1)?.event).toBe('values');
    expect(heartbeatsBetweenEvents(joined)).toBeGreaterThanOrEqual(3);
  });

  it("a thread's stream and a protocol v2 event stream get heartbeats while idle", async () => {
    const { thread_id } = await deployment.client.threads.create();
    const twoBeats = (frames: Frame[]) =>
      frames.filter((frame) => frame.kind === 'heartbeat').length >= 2;
    const thread = await readFrames(`/threads/${thread_id}/stream`, {}, twoBeats);
    expect(twoBeats(thread)).toBe(true);
    const protocol = await readFrames(
      `/threads/${thread_id}/stream/events`,
      post({ channels: ['values'] }),
      twoBeats,
    );
    expect(twoBeats(protocol)).toBe(true);
  });

  it('the SDK 1.15 with streamIdleReconnect "auto" skips them and sees every event once', async () => {
    const client = new Client115({ apiUrl: deployment.url, callerOptions: { maxRetries: 0 } });
    const { thread_id } = await client.threads.create();
    const parts = await collect(
      client.runs.stream(thread_id, 'agent', {
        input: userInput(SF),
        streamIdleReconnect: 'auto',
      }),
    );
    expect(parts.map((part) => part.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(parts.map((part) => part.event)).toEqual([
      'metadata',
      'values',
      'values',
      'values',
      'values',
    ]);
    expect((await client.runs.get(thread_id, runIdOf(parts))).status).toBe('success');
    expect(await conversation(deployment.client, thread_id)).toEqual(SF_RUN);
  });

  it('/info reports the flags the official server does', async () => {
    const info = (await (await fetch(`${deployment.url}/info`)).json()) as {
      flags: Record<string, boolean>;
    };
    expect(info.flags).toMatchObject({ assistants: true, crons: true });
    expect(typeof info.flags.langsmith).toBe('boolean');
  });
});
