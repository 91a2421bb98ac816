import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { conversation, failureStatus, SF, SF_RUN, userInput } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const AGENT_ASSISTANT_ID = 'fe096781-5601-53d2-b2f6-0d3403f7e9ca';

const deployment = useTestDeployment({ stepMs: 0 });

describe('create, get, update, delete', () => {
  it('creates an assistant with config, context, metadata, name and description', async () => {
    const { client } = deployment;
    const created = await client.assistants.create({
      graphId: 'agent',
      config: { configurable: { model_name: 'scripted' } },
      context: { tone: 'dry' },
      metadata: { team: 'billing' },
      name: 'Weather bot',
      description: 'foo',
    });
    expect(created).toMatchObject({
      graph_id: 'agent',
      config: { configurable: { model_name: 'scripted' } },
      context: { tone: 'dry' },
      metadata: { team: 'billing' },
      name: 'Weather bot',
      description: 'foo',
      version: 1,
    });
    expect(await client.assistants.get(created.assistant_id)).toEqual(created);
  });

  it('names an unnamed assistant "Untitled", as the official server', async () => {
    const created = await deployment.client.assistants.create({ graphId: 'agent' });
    expect(created.name).toBe('Untitled');
  });

  it('honours if_exists: raise (409) or do_nothing (the existing one)', async () => {
    const { client } = deployment;
    const assistantId = randomUUID();
    const first = await client.assistants.create({ graphId: 'agent', assistantId, name: 'one' });
    await expect(client.assistants.create({ graphId: 'agent', assistantId })).rejects.toThrow(
      'HTTP 409: {"detail":"Assistant already exists"}',
    );
    const again = await client.assistants.create({
      graphId: 'agent',
      assistantId,
      name: 'two',
      ifExists: 'do_nothing',
    });
    expect(again).toEqual(first);
  });

  it('updates into a new version, merging metadata, and deletes', async () => {
    const { client } = deployment;
    const created = await client.assistants.create({
      graphId: 'agent',
      config: { configurable: { a: 1 } },
      metadata: { name: 'woof' },
      description: 'foo',
    });
    const updated = await client.assistants.update(created.assistant_id, {
      metadata: { extra: true },
      description: 'bar',
    });
    expect(updated).toMatchObject({
      version: 2,
      config: { configurable: { a: 1 } },
      metadata: { name: 'woof', extra: true },
      description: 'bar',
    });
    await client.assistants.delete(created.assistant_id);
    await expect(client.assistants.get(created.assistant_id)).rejects.toThrow(
      'HTTP 404: {"detail":"Assistant not found"}',
    );
    expect(await failureStatus(client.assistants.delete(created.assistant_id))).toBe(404);
  });

  it('refuses an assistant for a graph this server does not serve', async () => {
    const create = deployment.client.assistants.create({ graphId: 'no_such_graph' });
    await expect(create).rejects.toThrow(
      'HTTP 404: {"detail":"Graph \\"no_such_graph\\" not found"}',
    );
  });

  it('deletes the threads that name the assistant when asked', async () => {
    const { client } = deployment;
    const assistant = await client.assistants.create({ graphId: 'agent' });
    const owned = await client.threads.create({
      metadata: { assistant_id: assistant.assistant_id },
    });
    const other = await client.threads.create();
    await client.assistants.delete(assistant.assistant_id, { deleteThreads: true });
    await expect(client.threads.get(owned.thread_id)).rejects.toThrow(
      `HTTP 404: {"detail":"Thread with ID ${owned.thread_id} not found"}`,
    );
    expect((await client.threads.get(other.thread_id)).thread_id).toBe(other.thread_id);
  });
});

describe('versions', () => {
  it('lists versions newest first, with limit, offset and metadata, and sets the latest', async () => {
    const { client } = deployment;
    const { assistant_id } = await client.assistants.create({ graphId: 'agent' });
    expect(await client.assistants.getVersions(assistant_id)).toMatchObject([{ version: 1 }]);
    await client.assistants.update(assistant_id, { config: { configurable: { foo: 'bar' } } });
    await client.assistants.update(assistant_id, { metadata: { foo: 'baz' } });
    await client.assistants.update(assistant_id, {});
    const versions = await client.assistants.getVersions(assistant_id);
    expect(versions.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(versions[2]).toMatchObject({ config: { configurable: { foo: 'bar' } } });
    expect(await client.assistants.getVersions(assistant_id, { limit: 1 })).toMatchObject([
      { version: 4 },
    ]);
    const tagged = await client.assistants.getVersions(assistant_id, { metadata: { foo: 'baz' } });
    expect(tagged.map((v) => v.version)).toEqual([4, 3]);

    const rolledBack = await client.assistants.setLatest(assistant_id, 1);
    expect(rolledBack).toMatchObject({ version: 1, config: {} });
    expect((await client.assistants.get(assistant_id)).version).toBe(1);
    expect((await client.assistants.update(assistant_id, {})).version).toBe(5);
    await expect(client.assistants.setLatest(assistant_id, 9)).rejects.toThrow(
      'HTTP 404: {"detail":"Assistant version not found"}',
    );
    await client.assistants.delete(assistant_id);
    expect(await failureStatus(client.assistants.getVersions(assistant_id))).toBe(404);
  });
});

describe('search and count', () => {
  it('filters by graph, metadata and name (case-insensitive substring), sorts and pages', async () => {
    const { client } = deployment;
    const team = randomUUID();
    const names = ['Alpha weather', 'beta WEATHER', 'gamma'];
    for (const name of names) {
      await client.assistants.create({ graphId: 'agent', name, metadata: { team } });
    }
    const found = await client.assistants.search({ metadata: { team } });
    expect(found.map((a) => a.name)).toEqual([...names].reverse());
    const byName = await client.assistants.search({ metadata: { team }, name: 'weath' });
    expect(byName.map((a) => a.name)).toEqual(['beta WEATHER', 'Alpha weather']);
    const sorted = await client.assistants.search({
      metadata: { team },
      sortBy: 'name',
      sortOrder: 'asc',
    });
    expect(sorted.map((a) => a.name)).toEqual(['Alpha weather', 'beta WEATHER', 'gamma']);
    const page = await client.assistants.search({ metadata: { team }, limit: 1, offset: 1 });
    expect(page.map((a) => a.name)).toEqual(['beta WEATHER']);
    expect(await client.assistants.count({ metadata: { team } })).toBe(3);
    expect(await client.assistants.count({ metadata: { team }, name: 'GAMMA' })).toBe(1);

    const system = await client.assistants.search({ metadata: { created_by: 'system' } });
    expect(system.map((a) => a.assistant_id)).toEqual([AGENT_ASSISTANT_ID]);
    expect(system[0]?.name).toBe('agent');
  });
});

describe('graph, schemas, subgraphs', () => {
  it('draws the graph, also with xray', async () => {
    const { client } = deployment;
    for (const graph of [
      await client.assistants.getGraph('agent'),
      await client.assistants.getGraph(AGENT_ASSISTANT_ID, { xray: true }),
    ]) {
      expect(graph.nodes.map((node) => node.id).sort()).toEqual(
        ['__end__', '__start__', 'agent', 'tools'].sort(),
      );
      expect(graph.edges).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ source: '__start__', target: 'agent' }),
          expect.objectContaining({ source: 'tools', target: 'agent' }),
          expect.objectContaining({ source: 'agent', target: 'tools', conditional: true }),
          expect.objectContaining({ source: 'agent', target: '__end__', conditional: true }),
        ]),
      );
    }
  });

  it('answers draft-07 JSON schemas whose state holds the messages', async () => {
    const schemas = await deployment.client.assistants.getSchemas('agent');
    expect(schemas.graph_id).toBe('agent');
    expect(schemas.state_schema).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { messages: { type: 'array' } },
    });
    expect(schemas.input_schema).toMatchObject({ properties: { messages: { type: 'array' } } });
    expect(schemas.config_schema).toMatchObject({ type: 'object' });
  });

  it('has no subgraphs, and 404 for an unknown assistant', async () => {
    const { client } = deployment;
    expect(await client.assistants.getSubgraphs('agent', { recurse: true })).toEqual({});
    expect(await failureStatus(client.assistants.getGraph(randomUUID()))).toBe(404);
    expect(await failureStatus(client.assistants.getSchemas(randomUUID()))).toBe(404);
  });
});

describe('runs through a created assistant', () => {
  it('runs the graph of any assistant that resolves to a served graph', async () => {
    const { client } = deployment;
    const assistant = await client.assistants.create({ graphId: 'agent', name: 'mine' });
    const { thread_id } = await client.threads.create();
    const run = await client.runs.create(thread_id, assistant.assistant_id, {
      input: userInput(SF),
    });
    expect(run.assistant_id).toBe(assistant.assistant_id);
    await client.runs.join(thread_id, run.run_id);
    expect(await conversation(client, thread_id)).toEqual(SF_RUN);
  });
});
