import { describe, expect, it } from 'vitest';
import {
  conversation,
  exchange,
  failureStatus,
  userInput,
  waitForMessages,
  NYC,
  NYC_RUN,
  SF,
  SF_RUN,
} from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

/** Each model step and the tool take STEP ms; long enough that a loaded machine keeps up. */
const STEP = 600;
const LA = 'and in la?';

const deployment = useTestDeployment({ stepMs: STEP });

async function newThread() {
  return (await deployment.client.threads.create()).thread_id;
}

describe.concurrent('rollback', () => {
  it.each([
    ['at once', 0],
    ['mid first model call', 1],
    ['mid tool', 2],
    ['mid second model call', 3],
  ])('removes run 1 entirely when run 2 comes %s', async (_label, progress) => {
    const { client } = deployment;
    const threadId = await newThread();
    const run1 = await client.runs.create(threadId, 'agent', { input: userInput(SF) });
    await waitForMessages(client, threadId, progress);
    const run2 = await client.runs.create(threadId, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'rollback',
    });

    await client.runs.join(threadId, run2.run_id);

    expect(await conversation(client, threadId)).toEqual(NYC_RUN);
    expect(await failureStatus(client.runs.get(threadId, run1.run_id))).toBe(404);
    const listed = await client.runs.list(threadId);
    expect(listed.map((run) => [run.run_id, run.status])).toEqual([[run2.run_id, 'success']]);
  });

  it('deletes a pending (enqueued) run and the running one, keeping earlier completed runs', async () => {
    const { client } = deployment;
    const threadId = await newThread();
    const done = await client.runs.create(threadId, 'agent', { input: userInput(SF) });
    await client.runs.join(threadId, done.run_id);
    const running = await client.runs.create(threadId, 'agent', { input: userInput('in london?') });
    const pending = await client.runs.create(threadId, 'agent', {
      input: userInput('in paris?'),
      multitaskStrategy: 'enqueue',
    });
    expect(pending.status).toBe('pending');
    await waitForMessages(client, threadId, 4 + 2);

    const last = await client.runs.create(threadId, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'rollback',
    });
    await client.runs.join(threadId, last.run_id);

    expect(await conversation(client, threadId)).toEqual([...SF_RUN, ...NYC_RUN]);
    for (const run of [running, pending]) {
      expect(await failureStatus(client.runs.get(threadId, run.run_id))).toBe(404);
    }
    expect((await client.runs.get(threadId, done.run_id)).status).toBe('success');
  });

  it('keeps only the third of three rapid runs (triple-texting)', async () => {
    const { client } = deployment;
    const threadId = await newThread();
    const run1 = await client.runs.create(threadId, 'agent', { input: userInput(SF) });
    await waitForMessages(client, threadId, 1);
    const run2 = await client.runs.create(threadId, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'rollback',
    });
    await waitForMessages(client, threadId, 2);
    const run3 = await client.runs.create(threadId, 'agent', {
      input: userInput(LA),
      multitaskStrategy: 'rollback',
    });

    await client.runs.join(threadId, run3.run_id);

    expect(await conversation(client, threadId)).toEqual(
      exchange(LA, 'la', "It's 75 degrees and clear in Los Angeles."),
    );
    for (const run of [run1, run2]) {
      expect(await failureStatus(client.runs.get(threadId, run.run_id))).toBe(404);
    }
  });

  it('rolls back a running run 1 that a client started with runs.wait (mid tool)', async () => {
    const { client } = deployment;
    const threadId = await newThread();
    // The official dev server keeps such a run (it only interrupts a run already executing).
    const waiting = failureStatus(client.runs.wait(threadId, 'agent', { input: userInput(SF) }));
    await waitForMessages(client, threadId, 2);
    const run2 = await client.runs.create(threadId, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'rollback',
    });

    expect(await waiting).toBe(404);
    await client.runs.join(threadId, run2.run_id);
    expect(await conversation(client, threadId)).toEqual(NYC_RUN);
    const listed = await client.runs.list(threadId);
    expect(listed.map((run) => run.run_id)).toEqual([run2.run_id]);
  });

  it('answers 404 to a join waiting on a run that a rollback deletes', async () => {
    const { client } = deployment;
    const threadId = await newThread();
    const run1 = await client.runs.create(threadId, 'agent', { input: userInput(SF) });
    const joining = failureStatus(client.runs.join(threadId, run1.run_id));
    await waitForMessages(client, threadId, 2);
    const run2 = await client.runs.create(threadId, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'rollback',
    });

    expect(await joining).toBe(404);
    await client.runs.join(threadId, run2.run_id);
  });

  it('leaves earlier runs alone when run 1 already finished', async () => {
    const { client } = deployment;
    const threadId = await newThread();
    const run1 = await client.runs.create(threadId, 'agent', { input: userInput(SF) });
    await client.runs.join(threadId, run1.run_id);
    const run2 = await client.runs.create(threadId, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'rollback',
    });
    await client.runs.join(threadId, run2.run_id);

    expect(await conversation(client, threadId)).toEqual([...SF_RUN, ...NYC_RUN]);
    expect((await client.runs.get(threadId, run1.run_id)).status).toBe('success');
  });
});
