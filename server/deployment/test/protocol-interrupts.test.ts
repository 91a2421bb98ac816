import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openThreadStream,
  readEvents,
  rootLifecycle,
  sendCommand,
  within,
} from './protocol-clients';
import { removeDataDir, sleep, startTestDeployment, type TestDeployment } from './test-deployment';

const APPROVAL = path.join(import.meta.dirname, 'fixtures/graphs/approval.json');
const ask = { messages: [{ role: 'user', content: 'refund order 42' }] };

/** Interrupts over protocol v2, on a langgraph.json graph whose node calls `interrupt()`. */
describe('protocol v2 interrupts (input.requested, input.respond)', () => {
  let deployment: TestDeployment;

  beforeAll(async () => {
    deployment = await startTestDeployment({ stepMs: 0, langgraphConfig: APPROVAL });
  }, 120_000);

  afterAll(async () => {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  });

  const answers = async (threadId: string) => {
    const state = await deployment.client.threads.getState<{ messages: { content: string }[] }>(
      threadId,
    );
    return state.values.messages.map((message) => message.content);
  };

  /** Polls until the thread stream has seen the run ask for input. */
  async function interruptOf(thread: ReturnType<typeof openThreadStream>) {
    for (let i = 0; i < 500 && thread.interrupts.length === 0; i += 1) await sleep(10);
    return thread.interrupts[0];
  }

  it.each(['sse', 'websocket'] as const)(
    'over %s: the run asks, input.respond resumes it',
    async (transport) => {
      const threadId = randomUUID();
      const thread = openThreadStream(deployment.url, threadId, transport, 'approval');
      const lifecycles = readEvents(
        deployment.url,
        threadId,
        { channels: ['lifecycle', 'input'], namespaces: [[]], depth: 0 },
        (events) => events.filter(rootLifecycle).length >= 4,
      );
      await thread.run.start({ input: ask });

      const interrupt = await interruptOf(thread);
      expect(interrupt?.payload).toEqual({ question: 'Approve the refund?' });
      // The run's end (lifecycle interrupted) follows its question once the checkpoint is written.
      await expect.poll(() => thread.interrupted).toBe(true);
      const state = await thread.state.get({ namespace: [] });
      expect(state.values).toMatchObject({ messages: [{ content: 'refund order 42' }] });

      await thread.input.respond({
        namespace: [],
        interrupt_id: interrupt?.interruptId ?? '',
        response: 'yes',
      });
      await within(thread.output, 10_000, 'the resumed run');
      await expect.poll(() => answers(threadId)).toEqual(['refund order 42', 'approved: yes']);

      const events = await lifecycles;
      expect(events.map((event) => rootLifecycle(event) ?? event.method)).toEqual([
        'running',
        'input.requested',
        'interrupted',
        'running',
        'completed',
      ]);
      await thread.close();
    },
  );

  it('run.start with input while the thread waits resumes it (as the official server does)', async () => {
    const threadId = randomUUID();
    const start = (id: number, input: unknown) =>
      sendCommand(deployment.url, threadId, {
        id,
        method: 'run.start',
        params: { assistant_id: 'approval', input },
      });
    expect((await start(1, ask)).body).toMatchObject({ type: 'success' });
    await expect
      .poll(async () => (await deployment.client.threads.get(threadId)).status)
      .toBe('interrupted');
    expect((await start(2, 'maybe')).body).toMatchObject({ type: 'success' });
    await expect.poll(() => answers(threadId)).toEqual(['refund order 42', 'approved: maybe']);
  });

  it('input.respond refuses an unknown interrupt, and a thread that waits for nothing', async () => {
    const threadId = randomUUID();
    const respond = (id: number, interrupt_id: string) =>
      sendCommand(deployment.url, threadId, {
        id,
        method: 'input.respond',
        params: { interrupt_id, response: 'yes' },
      });
    expect((await respond(1, 'nope')).body).toMatchObject({
      type: 'error',
      id: 1,
      error: 'no_such_run',
    });
    await sendCommand(deployment.url, threadId, {
      id: 2,
      method: 'run.start',
      params: { assistant_id: 'approval', input: ask },
    });
    await expect
      .poll(async () => (await deployment.client.threads.get(threadId)).status)
      .toBe('interrupted');
    const unknown = await respond(3, 'not-an-interrupt');
    expect(unknown).toEqual({
      status: 200,
      body: {
        type: 'error',
        id: 3,
        error: 'no_such_interrupt',
        message: `Interrupt not-an-interrupt is not pending on thread ${threadId}.`,
        meta: { thread_id: threadId, applied_through_seq: expect.any(Number) as number },
      },
    });
  });
});
