import { describe, expect, it } from 'vitest';
import {
  conversation,
  failureStatus,
  userInput,
  waitForMessages,
  NYC,
  NYC_RUN,
  SF,
  SF_RUN,
} from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

/** Long enough that a loaded machine keeps up with the run's progress. */
const STEP = 600;

const deployment = useTestDeployment({ stepMs: STEP });

/** A thread whose run 1 is active and has written `progress` messages (see waitForMessages). */
async function threadWithActiveRun(progress = 0) {
  const { client } = deployment;
  const threadId = (await client.threads.create()).thread_id;
  const run1 = await client.runs.create(threadId, 'agent', { input: userInput(SF) });
  await waitForMessages(client, threadId, progress);
  return { threadId, run1 };
}

describe.concurrent('interrupt', () => {
  it.each([
    ['mid model call', 1, [`human: ${SF}`]],
    ['mid tool', 2, [`human: ${SF}`, 'ai: get_weather(sf)']],
  ])('keeps run 1 as interrupted with its partial state (%s)', async (_label, progress, kept) => {
    const { client } = deployment;
    const { threadId, run1 } = await threadWithActiveRun(progress);
    const run2 = await client.runs.create(threadId, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'interrupt',
    });
    await client.runs.join(threadId, run2.run_id);

    expect((await client.runs.get(threadId, run1.run_id)).status).toBe('interrupted');
    expect((await client.runs.get(threadId, run2.run_id)).status).toBe('success');
    expect(await conversation(client, threadId)).toEqual([...kept, ...NYC_RUN]);
  });
});

describe.concurrent('reject', () => {
  it('refuses run 2 with 409 while run 1 goes on', async () => {
    const { client } = deployment;
    const { threadId, run1 } = await threadWithActiveRun(1);
    const payload = { input: userInput(NYC), multitaskStrategy: 'reject' as const };

    expect(await failureStatus(client.runs.create(threadId, 'agent', payload))).toBe(409);

    await client.runs.join(threadId, run1.run_id);
    expect((await client.runs.get(threadId, run1.run_id)).status).toBe('success');
    expect(await client.runs.list(threadId)).toHaveLength(1);
    expect(await conversation(client, threadId)).toEqual(SF_RUN);
  });
});

describe.concurrent('enqueue', () => {
  it.each([['enqueue' as const], [undefined]])(
    'keeps run 2 pending until run 1 finishes, then runs it on the resulting state (strategy %s)',
    async (strategy) => {
      const { client } = deployment;
      const { threadId, run1 } = await threadWithActiveRun();
      const run2 = await client.runs.create(threadId, 'agent', {
        input: userInput(NYC),
        ...(strategy && { multitaskStrategy: strategy }),
      });
      expect(run2.status).toBe('pending');
      expect(run2.multitask_strategy).toBe('enqueue');

      await client.runs.join(threadId, run2.run_id);

      expect((await client.runs.get(threadId, run1.run_id)).status).toBe('success');
      expect(await conversation(client, threadId)).toEqual([...SF_RUN, ...NYC_RUN]);
    },
  );
});

describe.concurrent('cancel and delete', () => {
  it('cancel with action=interrupt keeps the run as interrupted', async () => {
    const { client } = deployment;
    const { threadId, run1 } = await threadWithActiveRun(2);
    await client.runs.cancel(threadId, run1.run_id, true);
    expect((await client.runs.get(threadId, run1.run_id)).status).toBe('interrupted');
    expect(await conversation(client, threadId)).toEqual([`human: ${SF}`, 'ai: get_weather(sf)']);
  });

  it('cancel with action=rollback deletes the run and what it wrote; then starts the next', async () => {
    const { client } = deployment;
    const { threadId, run1 } = await threadWithActiveRun(2);
    const queued = await client.runs.create(threadId, 'agent', {
      input: userInput(NYC),
      multitaskStrategy: 'enqueue',
    });
    await client.runs.cancel(threadId, run1.run_id, true, 'rollback');

    expect(await failureStatus(client.runs.get(threadId, run1.run_id))).toBe(404);
    await client.runs.join(threadId, queued.run_id);
    expect(await conversation(client, threadId)).toEqual(NYC_RUN);
  });

  it.each([['interrupt' as const], ['rollback' as const]])(
    'cancelling a queued run (%s) leaves the executing one running',
    async (action) => {
      const { client } = deployment;
      const { threadId, run1 } = await threadWithActiveRun(1);
      const queued = await client.runs.create(threadId, 'agent', {
        input: userInput(NYC),
        multitaskStrategy: 'enqueue',
      });
      await client.runs.cancel(threadId, queued.run_id, true, action);

      await client.runs.join(threadId, run1.run_id);
      expect((await client.runs.get(threadId, run1.run_id)).status).toBe('success');
      const after = await failureStatus(client.runs.get(threadId, queued.run_id));
      expect(after).toBe(action === 'rollback' ? 404 : 'ok');
      expect(await conversation(client, threadId)).toEqual(SF_RUN);
    },
  );

  it('refuses to cancel a finished run (409) and to delete an active one (409)', async () => {
    const { client } = deployment;
    const { threadId, run1 } = await threadWithActiveRun();
    expect(await failureStatus(client.runs.delete(threadId, run1.run_id))).toBe(409);
    await client.runs.join(threadId, run1.run_id);
    expect(await failureStatus(client.runs.cancel(threadId, run1.run_id))).toBe(409);
  });

  it('deletes a finished run record (then 404) and keeps the thread state', async () => {
    const { client } = deployment;
    const { threadId, run1 } = await threadWithActiveRun();
    await client.runs.join(threadId, run1.run_id);
    await client.runs.delete(threadId, run1.run_id);
    expect(await failureStatus(client.runs.get(threadId, run1.run_id))).toBe(404);
    expect(await conversation(client, threadId)).toEqual(SF_RUN);
  });
});

describe.concurrent('runs.wait', () => {
  it('creates a run and answers with the final state values', async () => {
    const { client } = deployment;
    const threadId = (await client.threads.create()).thread_id;
    const values = await client.runs.wait(threadId, 'agent', { input: userInput(NYC) });
    expect(values).toMatchObject({ messages: [{ type: 'human' }, {}, {}, { type: 'ai' }] });
    expect((await client.threads.get(threadId)).status).toBe('idle');
  });
});
