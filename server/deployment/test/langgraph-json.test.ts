import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDataDir, startTestDeployment, type TestDeployment } from './test-deployment';

const LOADED = path.join(import.meta.dirname, 'fixtures/graphs/loaded.json');

/** The node names a streamed run's `updates` events name. */
async function updatedNodes(stream: AsyncIterable<{ event: string; data: unknown }>) {
  const nodes: string[] = [];
  for await (const part of stream) {
    if (part.event === 'updates') nodes.push(...Object.keys(part.data as object));
  }
  return nodes;
}

/**
 * A langgraph.json served as the official JS server serves it: schemas extracted from the graphs'
 * code, graph factories built per config, request headers in `configurable`, messages written by
 * `toDict` and 404s in plain text.
 */
describe('serving a langgraph.json', () => {
  let deployment: TestDeployment;
  let client: Client;

  beforeAll(async () => {
    // The TypeScript parse of the graphs' types runs before this resolves (seconds).
    deployment = await startTestDeployment({ stepMs: 0, langgraphConfig: LOADED });
    client = deployment.client;
  }, 120_000);

  afterAll(async () => {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  });

  it("reads an Annotation graph's schemas from its TypeScript types, a subgraph's too", async () => {
    const schemas = await client.assistants.getSchemas('annotated');
    expect(schemas.state_schema).toMatchObject({
      type: 'object',
      // The Overwrite alternative of a reducer channel is not a state value: left out.
      properties: { log: { type: 'array', items: { type: 'string' } } },
    });
    expect(JSON.stringify(schemas.state_schema)).not.toContain('__overwrite__');

    const subgraphs = await client.assistants.getSubgraphs('annotated');
    expect(Object.keys(subgraphs)).toEqual(['inner']);
    expect(subgraphs.inner).toMatchObject({
      state: { properties: { mood: { type: 'string', enum: ['busy', 'calm'] } } },
    });
  });

  it("reads a zod graph's schemas from the compiled graph", async () => {
    const schemas = await client.assistants.getSchemas('zodded');
    expect(schemas.state_schema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, degrees: { type: 'number' } },
    });
  });

  it("builds a factory graph from each run's config, and a thread's from its latest run", async () => {
    const byDefault = client.runs.stream(null, 'dynamic', {
      input: {},
      streamMode: ['updates'],
    });
    expect(await updatedNodes(byDefault)).toEqual(['default']);

    const assistant = await client.assistants.create({
      graphId: 'dynamic',
      config: { configurable: { nodeName: 'from_assistant' } },
    });
    const thread = await client.threads.create();
    const run = client.runs.stream(thread.thread_id, assistant.assistant_id, {
      input: {},
      streamMode: ['updates'],
    });
    expect(await updatedNodes(run)).toEqual(['from_assistant']);
    const drawing = await client.assistants.getGraph(assistant.assistant_id);
    expect(drawing.nodes.map((node) => node.id)).toContain('from_assistant');

    // The update names a node only the thread's graph (built from its run's config) has.
    await client.threads.updateState(thread.thread_id, {
      values: { visited: ['by hand'] },
      asNode: 'from_assistant',
    });
    const state = await client.threads.getState<{ visited: string[] }>(thread.thread_id);
    expect(state.values.visited).toEqual(['from_assistant', 'by hand']);
  });

  it('passes x-* request headers to the nodes and leaves absent message fields out', async () => {
    const withHeader = new Client({
      apiUrl: deployment.url,
      defaultHeaders: { 'x-greeting': 'hello' },
      callerOptions: { maxRetries: 0 },
    });
    const thread = await withHeader.threads.create();
    const values = await withHeader.runs.wait(thread.thread_id, 'chat', {
      input: { messages: [{ role: 'human', content: 'hi', id: 'question' }] },
    });
    expect(values).toEqual({
      messages: [
        {
          type: 'human',
          id: 'question',
          content: 'hi',
          additional_kwargs: {},
          response_metadata: {},
        },
        expect.objectContaining({ type: 'ai', id: 'reply', content: 'greeting: hello' }),
      ],
    });
  });

  it('answers a 404 as plain text, as the official JS server', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    await expect(client.assistants.get(missing)).rejects.toThrow('HTTP 404: Assistant not found');
    const response = await fetch(`${deployment.url}/threads/${missing}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(`Thread with ID ${missing} not found`);
  });
});
