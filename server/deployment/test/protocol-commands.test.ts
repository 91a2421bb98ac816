import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readEvents, rootLifecycle, sendCommand } from './protocol-clients';
import { NYC, SF, userInput, waitForMessages } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 100 });

const start = (threadId: string, id: number, params: Record<string, unknown>) =>
  sendCommand(deployment.url, threadId, { id, method: 'run.start', params });
const meta = (threadId: string) => ({
  thread_id: threadId,
  applied_through_seq: expect.any(Number) as number,
});

describe('protocol v2 commands: answers and refusals', () => {
  it.each([
    [{ id: 1, method: 'foo.bar' }, 'unknown_command', 'Unknown protocol command: foo.bar'],
    [
      { id: 2, method: 'run.start', params: {} },
      'invalid_argument',
      'run.start assistant_id: Invalid input: expected string, received undefined',
    ],
    [
      {
        id: 3,
        method: 'run.start',
        params: { assistant_id: 'agent', input: userInput(SF), multitaskStrategy: 'later' },
      },
      'invalid_argument',
      expect.stringContaining('multitaskStrategy'),
    ],
    [
      { id: 4, method: 'run.start', params: { assistant_id: 'nobody', input: userInput(SF) } },
      'invalid_argument',
      expect.stringContaining('No assistant found for "nobody"'),
    ],
    [
      { id: 5, method: 'run.start', params: { assistant_id: 'agent', input: { messages: [] } } },
      'invalid_argument',
      expect.stringContaining('input.messages'),
    ],
    [{ id: 6, method: 'state.get' }, 'no_such_run', expect.stringContaining('has no state yet')],
    [
      { id: 7, method: 'agent.getTree' },
      'not_supported',
      'agent.getTree is not supported by this server.',
    ],
  ])('%j -> %s', async (command, error, message) => {
    const threadId = randomUUID();
    const { status, body } = await sendCommand(deployment.url, threadId, command);
    expect(status).toBe(200);
    expect(body).toEqual({ type: 'error', id: command.id, error, message, meta: meta(threadId) });
  });

  it.each([
    ['not JSON', '{"id":', 'body: not valid JSON'],
    ['no id', { method: 'run.start' }, expect.stringContaining('id:')],
    ['a negative id', { id: -1, method: 'state.get' }, expect.stringContaining('id:')],
  ])('a malformed envelope (%s) is a 422', async (_name, command, detail) => {
    const { status, body } = await sendCommand(deployment.url, randomUUID(), command);
    expect({ status, body }).toEqual({ status: 422, body: { detail } });
  });

  it('a thread id that is not a UUID is refused before anything runs', async () => {
    const { status, body } = await sendCommand(deployment.url, 'not-a-uuid', {
      id: 1,
      method: 'state.get',
    });
    expect(status).toBe(422);
    expect(body.detail).toEqual([
      expect.objectContaining({ loc: ['path', 'threadId'], type: 'uuid_parsing' }),
    ]);
  });

  it.each([
    [{ channels: ['values'], foo: 1 }, expect.stringContaining('foo')],
    [{ channels: ['nope'] }, expect.stringContaining('channels.0: not a protocol channel')],
    [{ channels: ['values'], depth: -1 }, expect.stringContaining('depth')],
    [{}, expect.stringContaining('channels')],
  ])('stream/events %j is a 422', async (filter, detail) => {
    const response = await fetch(`${deployment.url}/threads/${randomUUID()}/stream/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(filter),
    });
    expect({ status: response.status, body: (await response.json()) as unknown }).toEqual({
      status: 422,
      body: { detail },
    });
  });

  it('GET stream/events without a WebSocket upgrade is a 426', async () => {
    const response = await fetch(`${deployment.url}/threads/${randomUUID()}/stream/events`);
    expect(response.status).toBe(426);
  });

  it('state.get answers the values and checkpoint, only the keys asked for', async () => {
    const threadId = randomUUID();
    await start(threadId, 1, { assistant_id: 'agent', input: userInput(SF) });
    await waitForMessages(deployment.client, threadId, 4);
    const { body } = await sendCommand(deployment.url, threadId, {
      id: 2,
      method: 'state.get',
      params: { keys: ['nothing'] },
    });
    expect(body).toEqual({
      type: 'success',
      id: 2,
      result: { values: {}, checkpoint: { id: expect.any(String) as string, ns: '' } },
      meta: meta(threadId),
    });
    const full = await sendCommand(deployment.url, threadId, { id: 3, method: 'state.get' });
    expect((full.body.result as { values: { messages: unknown[] } }).values.messages).toHaveLength(
      4,
    );
  });

  it('reject: a second run.start while one runs is refused, the first goes on', async () => {
    const threadId = randomUUID();
    await start(threadId, 1, { assistant_id: 'agent', input: userInput(SF) });
    await waitForMessages(deployment.client, threadId, 2);
    const { body } = await start(threadId, 2, {
      assistant_id: 'agent',
      input: userInput(NYC),
      multitaskStrategy: 'reject',
    });
    expect(body).toMatchObject({
      type: 'error',
      id: 2,
      error: 'invalid_argument',
      message: expect.stringContaining('"reject"') as string,
    });
    await waitForMessages(deployment.client, threadId, 4);
    expect(await deployment.client.runs.list(threadId)).toHaveLength(1);
  });

  it('a failing run ends with lifecycle failed carrying the error', async () => {
    const threadId = randomUUID();
    await start(threadId, 1, {
      assistant_id: 'agent',
      input: userInput(SF),
      config: { recursion_limit: 1 },
    });
    const events = await readEvents(
      deployment.url,
      threadId,
      { channels: ['lifecycle'], namespaces: [[]], depth: 0 },
      (seen) => seen.length >= 2,
    );
    expect(events.map(rootLifecycle)).toEqual(['running', 'failed']);
    expect(String(events[1]?.params.data.error)).toMatch(/Recursion limit of 1 reached/);
    const [run] = await deployment.client.runs.list(threadId);
    expect(run?.status).toBe('error');
  });
});

describe('protocol v2 over a WebSocket: refusals', () => {
  /** Opens the thread's socket, sends `frames` and resolves with the first `count` answers. */
  async function exchange(frames: string[], count: number): Promise<unknown[]> {
    const socket = new WebSocket(
      `${deployment.url.replace('http', 'ws')}/threads/${randomUUID()}/stream/events`,
    );
    const answers: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => frames.forEach((frame) => socket.send(frame)));
      socket.on('message', (data) => {
        answers.push(JSON.parse(String(data)));
        if (answers.length === count) resolve();
      });
      socket.on('error', reject);
    });
    socket.close();
    return answers;
  }

  it('answers bad frames, bad subscriptions and unknown ones with protocol errors', async () => {
    const answers = await exchange(
      [
        'not json',
        '{"id":1,"method":"subscription.subscribe","params":{"channels":["nope"]}}',
        '{"id":2,"method":"subscription.unsubscribe","params":{"subscription_id":"x"}}',
      ],
      3,
    );
    expect(answers).toEqual([
      {
        type: 'error',
        id: null,
        error: 'invalid_argument',
        message: 'Protocol commands must be JSON with an integer id and a string method.',
      },
      expect.objectContaining({ type: 'error', id: 1, error: 'invalid_argument' }),
      expect.objectContaining({
        type: 'error',
        id: 2,
        error: 'no_such_subscription',
        message: 'Unknown subscription: x',
      }),
    ]);
  });
});
