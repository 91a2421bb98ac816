import { describe, expect, it } from 'vitest';
import { SF, SF_RUN, conversation, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 20 });

/** Every part of an SDK stream, as `[event, data]`. */
async function collect(parts: AsyncIterable<{ event: string; data: unknown }>) {
  const seen: Array<{ event: string; data: unknown }> = [];
  for await (const part of parts) seen.push({ event: part.event, data: part.data });
  return seen;
}

describe('runs.stream', () => {
  it('sends metadata with the run id first, then the values after each step', async () => {
    const { client } = deployment;
    const { thread_id } = await client.threads.create();
    const parts = await collect(client.runs.stream(thread_id, 'agent', { input: userInput(SF) }));
    console.log(JSON.stringify(parts).slice(0, 3000));
    expect(parts[0]?.event).toBe('metadata');
    expect(await conversation(client, thread_id)).toEqual(SF_RUN);
  });
});
