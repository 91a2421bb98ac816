import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failureStatus,
  removeDataDir,
  sleep,
  startTestDeployment,
  userInput,
  type TestDeployment,
} from './test-deployment';

const SLOW = path.join(import.meta.dirname, 'fixtures/graphs/slow.json');

/**
 * Rollback on a user's own graph (a langgraph.json), whose nodes ignore our stop signals: the
 * rolled-back run leaves nothing behind, not even a checkpoint written after it was stopped.
 */
describe('rollback on a loaded graph', () => {
  let deployment: TestDeployment;

  beforeAll(async () => {
    deployment = await startTestDeployment({ stepMs: 0, langgraphConfig: SLOW });
  }, 120_000);

  afterAll(async () => {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  });

  /** The thread's messages as `type: content`. */
  async function messages(threadId: string) {
    const state = await deployment.client.threads.getState<{
      messages?: { type: string; content: string }[];
    }>(threadId);
    // A thread no run has written to yet has no messages.
    return (state.values.messages ?? []).map((message) => `${message.type}: ${message.content}`);
  }

  /** Waits until run 1 has left `count` messages: its progress observed, not guessed. */
  async function waitForMessages(threadId: string, count: number) {
    const deadline = Date.now() + 10_000;
    while ((await messages(threadId)).length < count) {
      if (Date.now() > deadline) throw new Error(`never reached ${count} messages`);
      await sleep(5);
    }
  }

  it.each([
    ['at once', 0],
    ['during its first step', 1],
    ['during its second step', 2],
    ['during its last step', 3],
  ])('keeps only run 2 when it comes %s', async (_label, progress) => {
    const { client } = deployment;
    const { thread_id: threadId } = await client.threads.create();
    const run1 = await client.runs.create(threadId, 'slow', { input: userInput('first') });
    await waitForMessages(threadId, progress);
    const run2 = await client.runs.create(threadId, 'slow', {
      input: userInput('second'),
      multitaskStrategy: 'rollback',
    });
    await client.runs.join(threadId, run2.run_id);
    // A write the stopped run left pending would land after run 2's join: give it time.
    await sleep(150);

    const run2Messages = [
      'human: second',
      'ai: second · step 1',
      'ai: second · step 2',
      'ai: second · step 3',
    ];
    expect(await messages(threadId)).toEqual(run2Messages);
    expect(await failureStatus(client.runs.get(threadId, run1.run_id))).toBe(404);
    const history = await client.threads.getHistory(threadId, { limit: 100 });
    const runIds = new Set(history.map((state) => state.metadata?.run_id));
    expect([...runIds]).toEqual([run2.run_id]);
    const contents = history.flatMap((state) =>
      ((state.values as { messages?: { content: string }[] }).messages ?? []).map((m) => m.content),
    );
    expect(contents.filter((content) => content.startsWith('first'))).toEqual([]);
  });

  it('keeps only run 2 on each of many threads double-texted at once', async () => {
    const { client } = deployment;
    // Rollbacks at many moments of run 1, all at the same time, so its writes are under way when
    // the rollback comes: 0 to 600 ms after its creation, while it provably has not finished (its
    // three steps take 900 ms).
    const outcomes = await Promise.all(
      Array.from({ length: 24 }, async (_, index) => {
        const { thread_id: threadId } = await client.threads.create();
        const run1 = await client.runs.create(threadId, 'slow', { input: userInput('first') });
        await sleep((index * 600) / 24);
        const run2 = await client.runs.create(threadId, 'slow', {
          input: userInput('second'),
          multitaskStrategy: 'rollback',
        });
        await client.runs.join(threadId, run2.run_id);
        await sleep(300);
        const history = await client.threads.getHistory(threadId, { limit: 100 });
        return {
          messages: await messages(threadId),
          run1: await failureStatus(client.runs.get(threadId, run1.run_id)),
          historyRuns: [...new Set(history.map((state) => state.metadata?.run_id))],
          expectedRuns: [run2.run_id],
        };
      }),
    );
    for (const outcome of outcomes) {
      expect(outcome.messages).toEqual([
        'human: second',
        'ai: second · step 1',
        'ai: second · step 2',
        'ai: second · step 3',
      ]);
      expect(outcome.run1).toBe(404);
      expect(outcome.historyRuns).toEqual(outcome.expectedRuns);
    }
  }, 60_000);
});
