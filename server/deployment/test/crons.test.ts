import { randomUUID } from 'node:crypto';
import type { Client } from '@langchain/langgraph-sdk';
import { describe, expect, it } from 'vitest';
import { failureStatus, SF, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 5 });
const EVERY_SECOND = '* * * * * *';
const NEW_YEAR = '0 0 1 1 *';

/** Polls `read` until `done` holds (the scheduler ticks once a second). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 8_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const cronRuns = (client: Client, threadId: string, cronId: string) =>
  client.runs
    .list(threadId, { limit: 100 })
    .then((runs) => runs.filter((run) => run.metadata?.cron_id === cronId));

describe('crons through the SDK', () => {
  it('a thread cron runs its payload on the thread on schedule, and stops once deleted', async () => {
    const { client } = deployment;
    const thread = await client.threads.create();
    const cron = await client.crons.createForThread(thread.thread_id, 'agent', {
      schedule: EVERY_SECOND,
      input: userInput(SF),
    });
    expect(cron).toMatchObject({ thread_id: thread.thread_id, schedule: EVERY_SECOND });
    expect(Date.parse(cron.next_run_date) - Date.now()).toBeLessThanOrEqual(1_000);

    const fired = await until(
      () => cronRuns(client, thread.thread_id, cron.cron_id),
      (runs) => runs.some((run) => run.status === 'success'),
    );
    expect(fired.length).toBeGreaterThanOrEqual(1);
    const state = await client.threads.getState<{ messages: { content: unknown }[] }>(
      thread.thread_id,
    );
    expect(state.values.messages.slice(0, 4).map((m) => m.content)).toContain(SF);

    await client.crons.delete(cron.cron_id);
    const afterDelete = (await cronRuns(client, thread.thread_id, cron.cron_id)).length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await cronRuns(client, thread.thread_id, cron.cron_id)).length).toBe(afterDelete);
    expect(await client.crons.search({ threadId: thread.thread_id })).toEqual([]);
  });

  it('a stateless cron runs on a new thread each time, kept when asked', async () => {
    const { client } = deployment;
    const cron = await client.crons.create('agent', {
      schedule: EVERY_SECOND,
      input: userInput(SF),
      onRunCompleted: 'keep',
    });
    expect(cron.thread_id).toBeNull();
    // Each firing's thread is kept: find one whose run the cron made, finished.
    const firedOn = async () => {
      for (const thread of await client.threads.search({ limit: 100, status: 'idle' })) {
        const runs = await cronRuns(client, thread.thread_id, cron.cron_id);
        if (runs.some((run) => run.status === 'success')) return thread.thread_id;
      }
      return undefined;
    };
    const threadId = await until(firedOn, (found) => found !== undefined);
    await client.crons.delete(cron.cron_id);
    const state = await client.threads.getState<{ messages: { content: unknown }[] }>(
      threadId ?? '',
    );
    expect(state.values.messages[0]?.content).toBe(SF);
  });

  it('searches, counts, selects and updates crons', async () => {
    const { client } = deployment;
    const thread = await client.threads.create();
    const onThread = await client.crons.createForThread(thread.thread_id, 'agent', {
      schedule: NEW_YEAR,
      input: userInput(SF),
    });
    const stateless = await client.crons.create('agent', {
      schedule: NEW_YEAR,
      input: userInput(SF),
    });
    expect(onThread.next_run_date).toMatch(/-01-01T00:00:00\.000Z$/);
    expect(stateless).toMatchObject({ on_run_completed: 'delete', enabled: true });

    expect(
      (await client.crons.search({ threadId: thread.thread_id })).map((c) => c.cron_id),
    ).toEqual([onThread.cron_id]);
    expect(await client.crons.count({ threadId: thread.thread_id })).toBe(1);
    const selected = await client.crons.search({
      threadId: thread.thread_id,
      select: ['cron_id', 'schedule'],
    });
    expect(selected).toEqual([{ cron_id: onThread.cron_id, schedule: NEW_YEAR }]);

    // Mondays 09:00 UTC, paused.
    const updated = await client.crons.update(onThread.cron_id, {
      schedule: '0 9 * * 1',
      enabled: false,
    });
    expect(updated).toMatchObject({ schedule: '0 9 * * 1', enabled: false });
    const next = new Date(updated.next_run_date ?? '');
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 9, 0]);
    const paused = await client.crons.search({ enabled: false });
    expect(paused.map((c) => c.cron_id)).toContain(onThread.cron_id);
    expect(paused.map((c) => c.cron_id)).not.toContain(stateless.cron_id);

    // Deleting the thread deletes its cron; the stateless one stays.
    await client.threads.delete(thread.thread_id);
    expect(await client.crons.search({ threadId: thread.thread_id })).toEqual([]);
    expect(await failureStatus(client.crons.delete(onThread.cron_id))).toBe(404);
    await client.crons.delete(stateless.cron_id);
  });

  it('refuses what cannot be scheduled, with the reason', async () => {
    const { client, url } = deployment;
    const thread = await client.threads.create();
    const bad = await fetch(`${url}/threads/${thread.thread_id}/runs/crons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ assistant_id: 'agent', schedule: 'every day', input: userInput(SF) }),
    });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^schedule: /);
    const noThread = client.crons.createForThread(randomUUID(), 'agent', { schedule: NEW_YEAR });
    expect(await failureStatus(noThread)).toBe(404);
    const noAssistant = client.crons.create('no-such-graph', { schedule: NEW_YEAR });
    expect(await failureStatus(noAssistant)).toBe(404);
    expect(await failureStatus(client.crons.delete(randomUUID()))).toBe(404);
    expect(await failureStatus(client.crons.delete('not-a-uuid'))).toBe(422);
    // An end before the next firing: nothing left to run.
    const cron = await client.crons.createForThread(thread.thread_id, 'agent', {
      schedule: NEW_YEAR,
      input: userInput(SF),
    });
    const endTime = new Date(Date.now() + 60_000).toISOString();
    const ended = await client.crons.update(cron.cron_id, { endTime });
    expect(ended).toMatchObject({ end_time: endTime, next_run_date: null });
  });
});
