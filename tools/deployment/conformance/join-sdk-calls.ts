import { check, userInput } from './conformance-kit';
import { collect, QUESTION, sdkCall, type SdkCall } from './sdk-call-kit';

const run = sdkCall('runs');
const thread = sdkCall('threads');

/** A run that waits a second before starting: a join made right after creating it sees it all. */
const DELAYED = { input: userInput(QUESTION), afterSeconds: 1 };

/** Batches, stateless joins, joins that pick stream modes, and a thread's own stream. */
export const joinCalls: SdkCall[] = [
  run('createBatch + stateless joinStream', async (ctx) => {
    const batch = await ctx.client.runs.createBatch([
      { assistantId: ctx.graphId, ...DELAYED },
      { assistantId: ctx.graphId, input: userInput(QUESTION) },
    ]);
    check(batch.length === 2, `${batch.length} runs, expected 2`);
    check(new Set(batch.map((r) => r.run_id)).size === 2, 'the same run twice');
    const [first] = batch;
    const events = await collect(ctx.client.runs.joinStream(null, first?.run_id ?? ''));
    check(events[0] === 'metadata', `first event ${events[0]}, expected metadata`);
    check(events.includes('values'), `no values event: ${events.join(', ')}`);
  }),
  run('joinStream streamMode updates', async (ctx) => {
    const { thread_id } = await ctx.client.threads.create();
    const created = await ctx.client.runs.create(thread_id, ctx.graphId, {
      ...DELAYED,
      streamMode: ['values', 'updates'],
    });
    const events = await collect(
      ctx.client.runs.joinStream(thread_id, created.run_id, { streamMode: 'updates' }),
    );
    check(events.includes('updates'), `no updates event: ${events.join(', ')}`);
    check(!events.includes('values'), `values events though only updates were asked for`);
  }),
  thread('joinStream', async (ctx) => {
    const { thread_id } = await ctx.client.threads.create();
    const created = await ctx.client.runs.create(thread_id, ctx.graphId, DELAYED);
    // The thread's stream stays open for its next runs: read this run's events, then leave.
    const leave = new AbortController();
    const events: { event: string; data: unknown }[] = [];
    try {
      for await (const part of ctx.client.threads.joinStream(thread_id, { signal: leave.signal })) {
        events.push(part);
        if (part.event === 'run_done') break;
      }
    } finally {
      leave.abort();
    }
    const metadata = events[0]?.data as { run_id?: string } | undefined;
    check(metadata?.run_id === created.run_id, `first event not the run's metadata`);
    check(
      events.some((part) => part.event === 'values'),
      'no values event',
    );
    const done = events.at(-1)?.data as { run_id?: string; status?: string } | undefined;
    check(done?.status === 'success', `run_done ${JSON.stringify(done)}, expected success`);
  }),
];
