import { afterEach, expect, it } from 'vitest';
import { markRunRunning } from './test-database';
import {
  conversation,
  removeDataDir,
  startTestDeployment,
  type TestDeployment,
  userInput,
  waitForMessages,
  NYC,
  NYC_RUN,
} from './test-deployment';

/** Long enough that the stop lands while the tool still runs, on a loaded machine too. */
const STEP = 500;
let deployment: TestDeployment | undefined;

afterEach(async () => {
  await deployment?.stop();
  if (deployment) await removeDataDir(deployment.dataDir);
  deployment = undefined;
});

it('keeps threads and runs across a restart; in-flight runs end interrupted, queued runs resume', async () => {
  deployment = await startTestDeployment({ stepMs: STEP });
  let { client } = deployment;
  const threadId = (await client.threads.create()).thread_id;
  const done = await client.runs.create(threadId, 'agent', { input: userInput(NYC) });
  await client.runs.join(threadId, done.run_id);
  const busyThread = (await client.threads.create()).thread_id;
  const inFlight = await client.runs.create(busyThread, 'agent', { input: userInput('sf?') });
  const queued = await client.runs.create(busyThread, 'agent', {
    input: userInput(NYC),
    multitaskStrategy: 'enqueue',
  });
  // Stop while the tool runs: the in-flight run has written the human and the ai tool call.
  await waitForMessages(client, busyThread, 2);

  await deployment.stop();
  deployment = await startTestDeployment({ stepMs: STEP, dataDir: deployment.dataDir });
  client = deployment.client;

  expect((await client.threads.get(threadId)).thread_id).toBe(threadId);
  expect((await client.runs.get(threadId, done.run_id)).status).toBe('success');
  expect(await conversation(client, threadId)).toEqual(NYC_RUN);
  expect((await client.runs.get(busyThread, inFlight.run_id)).status).toBe('interrupted');
  await client.runs.join(busyThread, queued.run_id);
  expect((await client.runs.get(busyThread, queued.run_id)).status).toBe('success');
  expect(await conversation(client, busyThread)).toEqual([
    'human: sf?',
    'ai: get_weather(sf)',
    ...NYC_RUN,
  ]);
});

it('marks runs left "running" by a crash as errors on start, never running forever', async () => {
  deployment = await startTestDeployment({ stepMs: STEP });
  const threadId = (await deployment.client.threads.create()).thread_id;
  const run = await deployment.client.runs.create(threadId, 'agent', { input: userInput(NYC) });
  await deployment.client.runs.join(threadId, run.run_id);
  await deployment.stop();
  // What a crash leaves behind: the record still says running.
  await markRunRunning(deployment.dataDir, run.run_id);

  deployment = await startTestDeployment({ stepMs: STEP, dataDir: deployment.dataDir });

  const after = await deployment.client.runs.get(threadId, run.run_id);
  expect(after).toMatchObject({
    status: 'error',
    error: expect.stringContaining('server stopped'),
  });
  expect((await deployment.client.threads.get(threadId)).status).toBe('error');
});

it('keeps assistants with their versions and store items across a restart, with one system assistant', async () => {
  deployment = await startTestDeployment({ stepMs: STEP });
  const created = await deployment.client.assistants.create({ graphId: 'agent', name: 'kept' });
  await deployment.client.assistants.update(created.assistant_id, { metadata: { v: 2 } });
  await deployment.client.store.putItem(['memories', 'u1'], 'likes', { food: 'pho' });
  await deployment.stop();

  deployment = await startTestDeployment({ stepMs: STEP, dataDir: deployment.dataDir });
  const { client } = deployment;
  expect(await client.assistants.get(created.assistant_id)).toMatchObject({
    name: 'kept',
    version: 2,
    metadata: { v: 2 },
  });
  expect((await client.assistants.getVersions(created.assistant_id)).length).toBe(2);
  expect(await client.assistants.count({ metadata: { created_by: 'system' } })).toBe(1);
  expect((await client.store.getItem(['memories', 'u1'], 'likes'))?.value).toEqual({ food: 'pho' });
});
