import {
  type CaseContext,
  check,
  expectExchange,
  expectHttpError,
  expectNoneOf,
  sleep,
  threadMessages,
  userInput,
} from './conformance-kit';

export interface ConformanceCase {
  name: string;
  run: (ctx: CaseContext) => Promise<void>;
}

const SF = 'what is the weather in sf?';
const NYC = "what's the weather in nyc?";
const LA = 'how is the weather in la?';

async function newThread(ctx: CaseContext) {
  return (await ctx.client.threads.create()).thread_id;
}

function startRun(ctx: CaseContext, threadId: string, text: string, strategy?: string) {
  const multitaskStrategy = strategy as 'rollback' | 'interrupt' | 'reject' | 'enqueue';
  const payload = { input: userInput(text), ...(strategy ? { multitaskStrategy } : {}) };
  return ctx.client.runs.create(threadId, ctx.assistantId, payload);
}

/** The spec's example: run 2 with rollback replaces run 1 entirely, sent after `delayMs`. */
async function rollbackAfter(ctx: CaseContext, delayMs: number) {
  const threadId = await newThread(ctx);
  const run1 = await startRun(ctx, threadId, SF);
  await sleep(delayMs);
  const before = await ctx.client.runs.get(threadId, run1.run_id);
  check(
    before.status === 'pending' || before.status === 'running',
    `run 1 was already ${before.status} when run 2 was sent; the case needs it active`,
  );
  const run2 = await startRun(ctx, threadId, NYC, 'rollback');
  await ctx.client.runs.join(threadId, run2.run_id);
  const messages = await threadMessages(ctx, threadId);
  expectNoneOf(messages, [SF]);
  expectExchange(messages, NYC);
  await expectHttpError(
    () => ctx.client.runs.get(threadId, run1.run_id),
    'GET of rolled-back run 1',
  );
}

export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  { name: 'rollback: run 2 sent at once', run: (ctx) => rollbackAfter(ctx, 0) },
  { name: 'rollback: run 2 sent later', run: (ctx) => rollbackAfter(ctx, ctx.laterMs) },
  {
    name: 'rollback: triple-texting keeps only run 3',
    run: async (ctx) => {
      const threadId = await newThread(ctx);
      const run1 = await startRun(ctx, threadId, SF);
      const run2 = await startRun(ctx, threadId, NYC, 'rollback');
      const run3 = await startRun(ctx, threadId, LA, 'rollback');
      await ctx.client.runs.join(threadId, run3.run_id);
      const messages = await threadMessages(ctx, threadId);
      expectNoneOf(messages, [SF, NYC]);
      expectExchange(messages, LA);
      for (const [label, run] of [
        ['run 1', run1],
        ['run 2', run2],
      ] as const) {
        await expectHttpError(() => ctx.client.runs.get(threadId, run.run_id), `GET of ${label}`);
      }
    },
  },
  {
    name: 'interrupt: run 1 kept as interrupted',
    run: async (ctx) => {
      const threadId = await newThread(ctx);
      const run1 = await startRun(ctx, threadId, SF);
      await sleep(ctx.laterMs);
      const run2 = await startRun(ctx, threadId, NYC, 'interrupt');
      await ctx.client.runs.join(threadId, run2.run_id);
      const kept = await ctx.client.runs.get(threadId, run1.run_id);
      check(kept.status === 'interrupted', `run 1 status is ${kept.status}, expected interrupted`);
      const messages = await threadMessages(ctx, threadId);
      check(messages[0]?.type === 'human', 'run 1 human message was not kept');
      expectExchange(messages, NYC, messages.length - 4);
    },
  },
  {
    name: 'reject: run 2 refused, run 1 goes on',
    run: async (ctx) => {
      const threadId = await newThread(ctx);
      const run1 = await startRun(ctx, threadId, SF);
      const refuse = () => startRun(ctx, threadId, NYC, 'reject');
      const status = await expectHttpError(refuse, 'run 2 with reject');
      check(status >= 400 && status < 500, `run 2 was refused with ${status}, expected a 4xx`);
      await ctx.client.runs.join(threadId, run1.run_id);
      const done = await ctx.client.runs.get(threadId, run1.run_id);
      check(done.status === 'success', `run 1 ended ${done.status}, expected success`);
      expectExchange(await threadMessages(ctx, threadId), SF);
    },
  },
  {
    name: 'enqueue: run 2 runs after run 1',
    run: async (ctx) => {
      const threadId = await newThread(ctx);
      const run1 = await startRun(ctx, threadId, SF);
      const run2 = await startRun(ctx, threadId, NYC, 'enqueue');
      check(run2.status === 'pending', `run 2 started as ${run2.status}, expected pending`);
      await ctx.client.runs.join(threadId, run2.run_id);
      for (const run of [run1, run2]) {
        const done = await ctx.client.runs.get(threadId, run.run_id);
        check(done.status === 'success', `run ${done.run_id} ended ${done.status}`);
      }
      const messages = await threadMessages(ctx, threadId);
      expectExchange(messages.slice(0, 4), SF);
      expectExchange(messages, NYC, 4);
    },
  },
  {
    name: 'deleted run: GET answers 404',
    run: async (ctx) => {
      const threadId = await newThread(ctx);
      const run1 = await startRun(ctx, threadId, SF);
      const run2 = await startRun(ctx, threadId, NYC, 'rollback');
      const status = await expectHttpError(
        () => ctx.client.runs.get(threadId, run1.run_id),
        'GET of rolled-back run 1',
      );
      check(status === 404, `GET of the deleted run answered ${status}, expected 404`);
      await ctx.client.runs.join(threadId, run2.run_id);
    },
  },
];
