import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SF, SF_RUN, conversation, failureStatus, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

// The webhook receiver below listens on loopback, which webhooks may reach only when opened.
const deployment = useTestDeployment({
  stepMs: 20,
  env: { WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1' },
});

/** A local HTTP endpoint that records the JSON bodies POSTed to it. */
async function webhookReceiver() {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(text));
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe.concurrent('breakpoints', () => {
  it.each([
    ['interrupt_before tools', { interruptBefore: ['tools'] }],
    ['interrupt_after agent', { interruptAfter: ['agent'] }],
  ])('%s: the thread is interrupted with next set; input null resumes', async (_label, options) => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    await client.runs.wait(thread_id, 'agent', { input: userInput(SF), ...options });

    expect((await client.threads.get(thread_id)).status).toBe('interrupted');
    expect((await client.threads.getState(thread_id)).next).toEqual(['tools']);
    expect(await conversation(client, thread_id)).toEqual(SF_RUN.slice(0, 2));

    await client.runs.wait(thread_id, 'agent', { input: null });
    expect(await conversation(client, thread_id)).toEqual(SF_RUN);
    expect((await client.threads.get(thread_id)).status).toBe('idle');
  });

  it('a command resumes from the breakpoint', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    await client.runs.wait(thread_id, 'agent', {
      input: userInput(SF),
      interruptBefore: ['tools'],
    });
    await client.runs.wait(thread_id, 'agent', { command: { resume: 'go on' } });
    expect(await conversation(client, thread_id)).toEqual(SF_RUN);
  });
});

describe.concurrent('run options', () => {
  it('config.recursion_limit: the run fails with GraphRecursionError', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const wait = client.runs.wait(thread_id, 'agent', {
      input: userInput(SF),
      config: { recursion_limit: 2 },
    });
    // The SDK raises the `__error__` the wait answers with, named after the error's class.
    await expect(wait).rejects.toThrow(/GraphRecursionError: Recursion limit of 2 reached/);
    const [run] = await client.runs.list(thread_id);
    expect(run?.status).toBe('error');
    expect((await client.threads.get(thread_id)).status).toBe('error');
  });

  it("an assistant's config.recursion_limit applies to its runs", async () => {
    const { client } = deployment;
    const assistant = await client.assistants.create({
      graphId: 'agent',
      config: { recursion_limit: 2 },
    });
    const { thread_id } = await client.threads.create();
    const wait = client.runs.wait(thread_id, assistant.assistant_id, { input: userInput(SF) });
    await expect(wait).rejects.toThrow(/GraphRecursionError/);
  });

  it('after_seconds: the run stays pending until then', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const createdAt = Date.now();
    const run = await client.runs.create(thread_id, 'agent', {
      input: userInput(SF),
      afterSeconds: 2,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await client.runs.get(thread_id, run.run_id)).status).toBe('pending');
    expect(await conversation(client, thread_id)).toEqual([]);

    await client.runs.join(thread_id, run.run_id);
    expect(Date.now() - createdAt).toBeGreaterThanOrEqual(2000);
    expect(await conversation(client, thread_id)).toEqual(SF_RUN);
  });

  it('webhook: the finished run and its values are POSTed to the URL', async () => {
    const { client } = deployment;
    const receiver = await webhookReceiver();
    try {
      const { thread_id } = await client.threads.create();
      const run = await client.runs.create(thread_id, 'agent', {
        input: userInput(SF),
        webhook: receiver.url,
      });
      await client.runs.join(thread_id, run.run_id);
      const deadline = Date.now() + 5000;
      while (receiver.bodies.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(receiver.bodies).toHaveLength(1);
      expect(receiver.bodies[0]).toMatchObject({
        run_id: run.run_id,
        thread_id,
        status: 'success',
        values: { messages: expect.arrayContaining([expect.objectContaining({ type: 'tool' })]) },
      });
    } finally {
      await receiver.close();
    }
  });

  it('if_not_exists: "create" makes the thread, otherwise an unknown thread is a 404', async () => {
    const { client } = deployment;
    const threadId = crypto.randomUUID();
    const refused = client.runs.create(threadId, 'agent', { input: userInput(SF) });
    expect(await failureStatus(refused)).toBe(404);

    const run = await client.runs.create(threadId, 'agent', {
      input: userInput(SF),
      ifNotExists: 'create',
    });
    await client.runs.join(threadId, run.run_id);
    expect(await conversation(client, threadId)).toEqual(SF_RUN);
  });

  it('runs.list filters by status and selects fields', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const done = await client.runs.create(thread_id, 'agent', { input: userInput(SF) });
    await client.runs.join(thread_id, done.run_id);
    const later = await client.runs.create(thread_id, 'agent', {
      input: userInput(SF),
      afterSeconds: 60,
    });

    const pending = await client.runs.list(thread_id, { status: 'pending' });
    expect(pending.map((run) => run.run_id)).toEqual([later.run_id]);
    const selected = await client.runs.list(thread_id, { select: ['run_id', 'status'] });
    expect(selected).toEqual([
      { run_id: later.run_id, status: 'pending' },
      { run_id: done.run_id, status: 'success' },
    ]);
    await client.runs.cancel(thread_id, later.run_id, true, 'rollback');
    expect(await failureStatus(client.runs.get(thread_id, later.run_id))).toBe(404);
  });

  it('a body with neither input nor command is a 422', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    expect(await failureStatus(client.runs.create(thread_id, 'agent', {}))).toBe(422);
  });
});
