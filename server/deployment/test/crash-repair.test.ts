import { afterEach, expect, it } from 'vitest';
import { markRunRunning } from './test-database';
import { CANCELLED_TOOL_CALL } from '../graph/answer-dangling-tool-calls';
import {
  conversation,
  NYC,
  NYC_RUN,
  removeDataDir,
  SF,
  startTestDeployment,
  type TestDeployment,
  userInput,
  waitForMessages,
} from './test-deployment';

let deployment: TestDeployment | undefined;
afterEach(async () => {
  if (!deployment) return;
  await deployment.stop();
  await removeDataDir(deployment.dataDir);
  deployment = undefined;
});

it('answers a tool call left without a tool message by a crash, before the next run', async () => {
  deployment = await startTestDeployment({ stepMs: 400 });
  const threadId = (await deployment.client.threads.create()).thread_id;
  const run = await deployment.client.runs.create(threadId, 'agent', { input: userInput(SF) });
  await waitForMessages(deployment.client, threadId, 2); // the tool call is out, its answer not
  await deployment.stop();
  // What a crash in the middle of the tool leaves behind: the record still says running.
  await markRunRunning(deployment.dataDir, run.run_id);

  deployment = await startTestDeployment({ stepMs: 0, dataDir: deployment.dataDir });
  const { client } = deployment;
  expect(await conversation(client, threadId)).toEqual([
    `human: ${SF}`,
    'ai: get_weather(sf)',
    `tool: ${CANCELLED_TOOL_CALL}`,
  ]);
  expect((await client.threads.getState(threadId)).next).toEqual([]);

  const next = await client.runs.create(threadId, 'agent', { input: userInput(NYC) });
  await client.runs.join(threadId, next.run_id);
  expect((await client.runs.get(threadId, next.run_id)).status).toBe('success');
  expect((await conversation(client, threadId)).slice(3)).toEqual(NYC_RUN);
});
