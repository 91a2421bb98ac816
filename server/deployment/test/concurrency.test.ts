import { expect, it } from 'vitest';
import { conversation, exchange, failureStatus, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

/** Run 1 must still be active when run 2 arrives, even on a loaded machine. */
const STEP = 300;
const CITIES = [
  ['sf', "It's 60 degrees and foggy in San Francisco."],
  ['nyc', "It's 90 degrees and sunny in New York."],
  ['la', "It's 75 degrees and clear in Los Angeles."],
] as const;

const deployment = useTestDeployment({ stepMs: STEP });

it('double-texts 30 threads at once; each keeps only its own second run', async () => {
  const { client } = deployment;
  const outcomes = await Promise.all(
    Array.from({ length: 30 }, async (_, i) => {
      const threadId = (await client.threads.create()).thread_id;
      const run1 = await client.runs.create(threadId, 'agent', { input: userInput(`sf #${i}?`) });
      const question = `weather in nyc for thread ${i}?`;
      const run2 = await client.runs.create(threadId, 'agent', {
        input: userInput(question),
        multitaskStrategy: 'rollback',
      });
      await client.runs.join(threadId, run2.run_id);
      return {
        messages: await conversation(client, threadId),
        expected: exchange(question, 'nyc', CITIES[1][1]),
        run1Status: await failureStatus(client.runs.get(threadId, run1.run_id)),
      };
    }),
  );
  for (const outcome of outcomes) {
    expect(outcome.messages).toEqual(outcome.expected);
    expect(outcome.run1Status).toBe(404);
  }
});

it('applies three concurrent rollback requests on one thread one after another', async () => {
  const { client } = deployment;
  const threadId = (await client.threads.create()).thread_id;
  await Promise.all(
    CITIES.map(([city]) =>
      client.runs.create(threadId, 'agent', {
        input: userInput(`weather in ${city}?`),
        multitaskStrategy: 'rollback',
      }),
    ),
  );

  const survivors = await client.runs.list(threadId);
  expect(survivors).toHaveLength(1);
  const [survivor] = survivors;
  await client.runs.join(threadId, survivor?.run_id ?? '');
  const messages = await conversation(client, threadId);
  const question = messages[0]?.replace('human: ', '') ?? '';
  const [city, forecast] = CITIES.find(([c]) => question === `weather in ${c}?`) ?? CITIES[0];
  expect(messages).toEqual(exchange(question, city, forecast));
});
