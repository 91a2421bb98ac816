import { check, userInput } from './conformance-kit';
import { joinCalls } from './join-sdk-calls';
import { collect, messagesOf, need, QUESTION, sdkCall, type SdkCall } from './sdk-call-kit';

const NAMESPACE = ['sdk-calls', 'notes'];
const assistant = sdkCall('assistants');
const thread = sdkCall('threads');
const run = sdkCall('runs');
const store = sdkCall('store');
const cron = sdkCall('crons');

const assistantCalls: SdkCall[] = [
  assistant('search by graph', async ({ client, graphId }) => {
    const found = await client.assistants.search({ graphId });
    check(
      found.some((a) => a.graph_id === graphId),
      'no assistant for the graph',
    );
  }),
  assistant('get by graph id', async ({ client, graphId }) => {
    check((await client.assistants.get(graphId)).graph_id === graphId, 'wrong graph');
  }),
  assistant('create', async (ctx) => {
    const created = await ctx.client.assistants.create({ graphId: ctx.graphId, name: 'sdk' });
    check(created.name === 'sdk', 'name not kept');
    ctx.ids.assistant = created.assistant_id;
  }),
  assistant('update', async (ctx) => {
    const updated = await ctx.client.assistants.update(need(ctx, 'assistant'), {
      metadata: { tag: 'v2' },
    });
    check(updated.version === 2, `version ${updated.version}, expected 2`);
  }),
  assistant('getVersions', async (ctx) => {
    const versions = await ctx.client.assistants.getVersions(need(ctx, 'assistant'));
    check(versions.length === 2, `${versions.length} versions, expected 2`);
  }),
  assistant('setLatest', async (ctx) => {
    const latest = await ctx.client.assistants.setLatest(need(ctx, 'assistant'), 1);
    check(latest.version === 1, 'version not set');
  }),
  assistant('count', async ({ client, graphId }) => {
    check((await client.assistants.count({ graphId })) >= 2, 'count below 2');
  }),
  assistant('getGraph', async ({ client, graphId }) => {
    check((await client.assistants.getGraph(graphId)).nodes.length > 0, 'no nodes');
  }),
  assistant('getGraph xray', async ({ client, graphId }) => {
    check((await client.assistants.getGraph(graphId, { xray: true })).nodes.length > 0, 'none');
  }),
  assistant('getSchemas', async ({ client, graphId }) => {
    check((await client.assistants.getSchemas(graphId)).graph_id === graphId, 'wrong graph');
  }),
  assistant('getSubgraphs', async ({ client, graphId }) => {
    check(typeof (await client.assistants.getSubgraphs(graphId)) === 'object', 'not an object');
  }),
];

const threadCalls: SdkCall[] = [
  thread('create', async (ctx) => {
    const thread = await ctx.client.threads.create({ metadata: { origin: 'sdk-calls' } });
    ctx.ids.thread = thread.thread_id;
  }),
  thread('create ifExists do_nothing', async (ctx) => {
    const threadId = need(ctx, 'thread');
    const again = await ctx.client.threads.create({ threadId, ifExists: 'do_nothing' });
    check(again.thread_id === threadId, 'another thread came back');
  }),
  thread('get', async (ctx) => {
    check((await ctx.client.threads.get(need(ctx, 'thread'))).status === 'idle', 'not idle');
  }),
  thread('update', async (ctx) => {
    const updated = await ctx.client.threads.update(need(ctx, 'thread'), { metadata: { n: 1 } });
    check(updated.metadata?.origin === 'sdk-calls', 'metadata not merged');
  }),
  thread('search by metadata', async (ctx) => {
    const found = await ctx.client.threads.search({ metadata: { origin: 'sdk-calls', n: 1 } });
    check(
      found.some((t) => t.thread_id === ctx.ids.thread),
      'thread not found',
    );
  }),
  thread('count', async ({ client }) => {
    check((await client.threads.count({ metadata: { origin: 'sdk-calls' } })) >= 1, 'count 0');
  }),
];

const runCalls: SdkCall[] = [
  run('wait', async (ctx) => {
    const values = await ctx.client.runs.wait(need(ctx, 'thread'), ctx.graphId, {
      input: userInput(QUESTION),
    });
    check(messagesOf(values).length > 1, 'no answer in the final values');
  }),
  run('create', async (ctx) => {
    const created = await ctx.client.runs.create(need(ctx, 'thread'), ctx.graphId, {
      input: userInput(QUESTION),
    });
    ctx.ids.run = created.run_id;
  }),
  run('get', async (ctx) => {
    const got = await ctx.client.runs.get(need(ctx, 'thread'), need(ctx, 'run'));
    check(got.run_id === ctx.ids.run, 'another run');
  }),
  run('join', async (ctx) => {
    await ctx.client.runs.join(need(ctx, 'thread'), need(ctx, 'run'));
    const got = await ctx.client.runs.get(need(ctx, 'thread'), need(ctx, 'run'));
    check(got.status === 'success', `status ${got.status} after join`);
  }),
  run('list', async (ctx) => {
    check((await ctx.client.runs.list(need(ctx, 'thread'))).length >= 2, 'fewer than 2 runs');
  }),
  run('delete', async (ctx) => {
    await ctx.client.runs.delete(need(ctx, 'thread'), need(ctx, 'run'));
  }),
  run('create enqueue + cancel', async (ctx) => {
    const threadId = need(ctx, 'thread');
    const options = { input: userInput(QUESTION), multitaskStrategy: 'enqueue' as const };
    await ctx.client.runs.create(threadId, ctx.graphId, options);
    const second = await ctx.client.runs.create(threadId, ctx.graphId, options);
    await ctx.client.runs.cancel(threadId, second.run_id, true);
    const got = await ctx.client.runs.get(threadId, second.run_id);
    check(got.status === 'interrupted', `status ${got.status} after cancel`);
  }),
  run('create afterSeconds (pending)', async (ctx) => {
    const { thread_id } = await ctx.client.threads.create();
    const later = await ctx.client.runs.create(thread_id, ctx.graphId, {
      input: userInput(QUESTION),
      afterSeconds: 30,
    });
    const got = await ctx.client.runs.get(thread_id, later.run_id);
    await ctx.client.runs.cancel(thread_id, later.run_id).catch(() => undefined);
    check(got.status === 'pending', `status ${got.status}, expected pending`);
  }),
  run('stream values', async (ctx) => {
    const { thread_id } = await ctx.client.threads.create();
    const events = await collect(
      ctx.client.runs.stream(thread_id, ctx.graphId, { input: userInput(QUESTION) }),
    );
    check(events.includes('values'), `no values event: ${events.join(', ')}`);
  }),
  run('stream messages-tuple', async (ctx) => {
    const { thread_id } = await ctx.client.threads.create();
    const stream = ctx.client.runs.stream(thread_id, ctx.graphId, {
      input: userInput(QUESTION),
      streamMode: 'messages-tuple',
    });
    check((await collect(stream)).includes('messages'), 'no messages event');
  }),
  run('stream updates', async (ctx) => {
    const { thread_id } = await ctx.client.threads.create();
    const stream = ctx.client.runs.stream(thread_id, ctx.graphId, {
      input: userInput(QUESTION),
      streamMode: 'updates',
    });
    check((await collect(stream)).includes('updates'), 'no updates event');
  }),
  run('joinStream', async (ctx) => {
    const { thread_id } = await ctx.client.threads.create();
    const created = await ctx.client.runs.create(thread_id, ctx.graphId, {
      input: userInput(QUESTION),
    });
    await collect(ctx.client.runs.joinStream(thread_id, created.run_id));
  }),
  run('stateless wait', async (ctx) => {
    const values = await ctx.client.runs.wait(null, ctx.graphId, { input: userInput(QUESTION) });
    check(messagesOf(values).length > 1, 'no answer in the final values');
  }),
  run('stateless stream', async (ctx) => {
    const events = await collect(
      ctx.client.runs.stream(null, ctx.graphId, { input: userInput(QUESTION) }),
    );
    check(events.includes('values'), 'no values event');
  }),
  run('wait with interruptBefore', async (ctx) => {
    const { thread_id } = await ctx.client.threads.create();
    const graph = await ctx.client.assistants.getGraph(ctx.graphId);
    const first = graph.nodes.map((n) => String(n.id)).find((id) => !id.startsWith('__'));
    await ctx.client.runs.wait(thread_id, ctx.graphId, {
      input: userInput(QUESTION),
      interruptBefore: [first ?? 'agent'],
    });
    const thread = await ctx.client.threads.get(thread_id);
    check(thread.status === 'interrupted', `thread ${thread.status}, expected interrupted`);
  }),
];

const stateCalls: SdkCall[] = [
  thread('getState', async (ctx) => {
    const state = await ctx.client.threads.getState(need(ctx, 'thread'));
    check(messagesOf(state.values).length > 1, 'no messages');
    ctx.ids.checkpoint = state.checkpoint.checkpoint_id ?? undefined;
  }),
  thread('getHistory', async (ctx) => {
    const history = await ctx.client.threads.getHistory(need(ctx, 'thread'), { limit: 3 });
    check(history.length === 3, `${history.length} states, expected 3`);
  }),
  thread('getState at a checkpoint', async (ctx) => {
    const state = await ctx.client.threads.getState(need(ctx, 'thread'), need(ctx, 'checkpoint'));
    check(state.checkpoint.checkpoint_id === ctx.ids.checkpoint, 'another checkpoint');
  }),
  thread('updateState', async (ctx) => {
    const threadId = need(ctx, 'thread');
    const graph = await ctx.client.assistants.getGraph(ctx.graphId);
    const node = graph.nodes.map((n) => String(n.id)).find((id) => !id.startsWith('__'));
    await ctx.client.threads.updateState(threadId, {
      values: { messages: [{ type: 'ai', content: 'noted' }] },
      asNode: node,
    });
    const state = await ctx.client.threads.getState(threadId);
    check(JSON.stringify(state.values).includes('noted'), 'update not in the state');
  }),
  thread('copy', async (ctx) => {
    const copy = await ctx.client.threads.copy(need(ctx, 'thread'));
    const state = await ctx.client.threads.getState(copy.thread_id);
    check(JSON.stringify(state.values).includes('noted'), 'copy lacks the state');
  }),
  thread('delete', async (ctx) => {
    const { thread_id } = await ctx.client.threads.create();
    await ctx.client.threads.delete(thread_id);
    const gone = await ctx.client.threads.get(thread_id).then(
      () => false,
      () => true,
    );
    check(gone, 'thread still there');
  }),
];

const storeCalls: SdkCall[] = [
  store('putItem', ({ client }) => client.store.putItem(NAMESPACE, 'k', { v: 1 })),
  store('getItem', async ({ client }) => {
    check((await client.store.getItem(NAMESPACE, 'k'))?.value.v === 1, 'wrong value');
  }),
  store('searchItems', async ({ client }) => {
    check((await client.store.searchItems(['sdk-calls'])).items.length === 1, 'not 1 item');
  }),
  store('listNamespaces', async ({ client }) => {
    const { namespaces } = await client.store.listNamespaces({ prefix: ['sdk-calls'] });
    check(namespaces.length === 1, `${namespaces.length} namespaces`);
  }),
  store('deleteItem', async ({ client }) => {
    await client.store.deleteItem(NAMESPACE, 'k');
    check((await client.store.getItem(NAMESPACE, 'k')) === null, 'item still there');
  }),
];

const cronCalls: SdkCall[] = [
  cron('create for a thread', async (ctx) => {
    const created = await ctx.client.crons.createForThread(need(ctx, 'thread'), ctx.graphId, {
      schedule: '0 0 1 1 *',
      input: userInput(QUESTION),
    });
    ctx.ids.cron = created.cron_id;
  }),
  cron('search', async ({ client }) => {
    check((await client.crons.search()).length >= 1, 'no cron');
  }),
  cron('delete', async (ctx) => ctx.client.crons.delete(need(ctx, 'cron'))),
];

const cleanup: SdkCall[] = [
  assistant('delete', (ctx) => ctx.client.assistants.delete(need(ctx, 'assistant'))),
];

/**
 * Common SDK calls, in an order where each finds what it needs from the ones before. Each checks
 * the answer a client would rely on, not merely a 2xx.
 */
export const SDK_CALLS: readonly SdkCall[] = [
  ...assistantCalls,
  ...threadCalls,
  ...runCalls,
  ...joinCalls,
  ...stateCalls,
  ...storeCalls,
  ...cronCalls,
  ...cleanup,
];
