import { describe, expect, it } from 'vitest';
import { failureStatus, sleep, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 20 });
const QUESTION = userInput('weather in sf?');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function eventsOf(stream: AsyncIterable<{ event: string; data: unknown }>) {
  const events: { event: string; data: unknown }[] = [];
  for await (const part of stream) events.push(part);
  return events;
}

describe('runs.createBatch', () => {
  it('creates one stateless run per body, each joinable by id alone', async () => {
    const { client } = deployment;
    const batch = await client.runs.createBatch([
      { assistantId: 'agent', input: QUESTION, afterSeconds: 1 },
      { assistantId: 'agent', input: QUESTION, metadata: { n: 2 } },
    ]);
    expect(batch.map((run) => run.metadata)).toEqual([{}, { n: 2 }]);
    const events = await eventsOf(client.runs.joinStream(null, batch[0]?.run_id ?? ''));
    expect(events[0]).toMatchObject({
      event: 'metadata',
      data: expect.objectContaining({ run_id: batch[0]?.run_id }),
    });
    expect(events.at(-1)?.event).toBe('values');
  });

  it('creates none when one body names an unknown assistant (404 naming its index)', async () => {
    // Stateless runs of the test before delete their threads when they end: wait for quiet.
    const settledCount = async () => {
      for (let last = -1; ; await sleep(200)) {
        const now = await deployment.client.threads.count();
        if (now === last) return now;
        last = now;
      }
    };
    const before = await settledCount();
    const response = await fetch(`${deployment.url}/runs/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { assistant_id: 'agent', input: QUESTION },
        { assistant_id: 'nope', input: QUESTION },
      ]),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      detail: expect.stringMatching(/^1: No assistant found for "nope"/),
    });
    expect(await deployment.client.threads.count()).toBe(before);
  });

  it.each([[[]], [{}], [[{ input: QUESTION }]]])('answers 422 to %j', async (body) => {
    const response = await fetch(`${deployment.url}/runs/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(422);
  });
});

describe('joinStream', () => {
  it("sends only the modes asked for (a subset of the run's)", async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const run = await client.runs.create(thread_id, 'agent', {
      input: QUESTION,
      afterSeconds: 1,
      streamMode: ['values', 'updates', 'messages-tuple'],
    });
    const events = await eventsOf(
      client.runs.joinStream(thread_id, run.run_id, { streamMode: ['updates', 'messages-tuple'] }),
    );
    const names = new Set(events.map((part) => part.event));
    expect([...names].sort()).toEqual(['messages', 'metadata', 'updates']);
  });

  it('answers 404 for a stateless run it does not know', async () => {
    expect(await failureStatus(eventsOf(deployment.client.runs.joinStream(null, UNKNOWN)))).toBe(
      404,
    );
  });
});

describe('threads.joinStream', () => {
  it('relays each run of the thread in turn, with run_done after each', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    // Both wait a second before starting, so the join below is there before either runs.
    const first = await client.runs.create(thread_id, 'agent', {
      input: QUESTION,
      afterSeconds: 1,
    });
    const second = await client.runs.create(thread_id, 'agent', {
      input: QUESTION,
      afterSeconds: 1,
      multitaskStrategy: 'enqueue',
    });
    const leave = new AbortController();
    const seen: string[] = [];
    const stream = client.threads.joinStream(thread_id, {
      streamMode: 'lifecycle',
      signal: leave.signal,
    });
    for await (const part of stream) {
      const { run_id, status } = part.data as { run_id: string; status?: string };
      seen.push(
        `${part.event} ${run_id === first.run_id ? 'first' : 'second'}${status ? ` ${status}` : ''}`,
      );
      if (part.event === 'run_done' && run_id === second.run_id) break;
    }
    leave.abort();
    expect(seen).toEqual([
      'metadata first',
      'run_done first success',
      'metadata second',
      'run_done second success',
    ]);
  });

  it('answers 404 for a thread that does not exist', async () => {
    expect(await failureStatus(eventsOf(deployment.client.threads.joinStream(UNKNOWN)))).toBe(404);
  });
});
