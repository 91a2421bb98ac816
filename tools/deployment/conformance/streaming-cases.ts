import type { ConformanceCase } from './conformance-cases';
import {
  type CaseContext,
  check,
  expectExchange,
  expectHttpError,
  expectNoneOf,
  threadMessages,
  userInput,
} from './conformance-kit';

const SF = 'what is the weather in sf?';
const NYC = "what's the weather in nyc?";

interface Part {
  event: string;
  data: unknown;
}

const messageCount = (part: Part) =>
  part.event === 'values' ? ((part.data as { messages?: unknown[] }).messages?.length ?? 0) : 0;

async function collect(parts: AsyncIterable<unknown>): Promise<Part[]> {
  const seen: Part[] = [];
  for await (const part of parts) seen.push(part as Part);
  return seen;
}

function runIdOf(parts: Part[]): string {
  const first = parts[0];
  check(first?.event === 'metadata', `first event is ${first?.event}, expected metadata`);
  const runId = (first.data as { run_id?: unknown }).run_id;
  check(typeof runId === 'string', 'the metadata event carries no run_id');
  return runId;
}

function streamQuestion(ctx: CaseContext, threadId: string, text: string, rollback = false) {
  return ctx.client.runs.stream(threadId, ctx.assistantId, {
    input: userInput(text),
    ...(rollback && { multitaskStrategy: 'rollback' as const }),
  });
}

/** Streaming (`runs.stream`, `joinStream`) and the default strategy, through the SDK. */
export const STREAMING_CASES: readonly ConformanceCase[] = [
  {
    name: 'stream: metadata with run_id first, then values, then the end',
    run: async (ctx) => {
      const { thread_id } = await ctx.client.threads.create();
      const parts = await collect(streamQuestion(ctx, thread_id, SF));
      const runId = runIdOf(parts);
      check(parts.map(messageCount).at(-1) === 4, 'the last values event does not hold 4 messages');
      const run = await ctx.client.runs.get(thread_id, runId);
      check(run.status === 'success', `the streamed run ended ${run.status}`);
      expectExchange(await threadMessages(ctx, thread_id), SF);
    },
  },
  {
    name: 'stream: a second client joins and sees the same end',
    run: async (ctx) => {
      const { thread_id } = await ctx.client.threads.create();
      const iterator = streamQuestion(ctx, thread_id, SF)[Symbol.asyncIterator]();
      const metadata = (await iterator.next()).value as Part;
      const runId = runIdOf([metadata]);
      const [first, joined] = await Promise.all([
        collect({ [Symbol.asyncIterator]: () => iterator }),
        collect(ctx.client.runs.joinStream(thread_id, runId)),
      ]);
      check(first.map(messageCount).at(-1) === 4, 'the first client did not see the final state');
      check(joined.map(messageCount).at(-1) === 4, 'the joined client did not see the final state');
    },
  },
  {
    name: 'stream: rollback ends a streamed run 1 within a second',
    run: async (ctx) => {
      const { thread_id } = await ctx.client.threads.create();
      const first: Part[] = [];
      let endedAt = 0;
      const firstDone = (async () => {
        for await (const part of streamQuestion(ctx, thread_id, SF)) first.push(part as Part);
        endedAt = Date.now();
      })();
      while (!first.some((part) => part.event === 'values')) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const sentAt = Date.now();
      const second = collect(streamQuestion(ctx, thread_id, NYC, true));
      await firstDone;
      check(endedAt - sentAt < 1000, `run 1's stream ended ${endedAt - sentAt} ms after run 2`);
      const secondParts = await second;
      check(secondParts.map(messageCount).at(-1) === 4, 'run 2 did not stream to its end');
      await expectHttpError(
        () => ctx.client.runs.get(thread_id, runIdOf(first)),
        'GET of rolled-back run 1',
      );
      const messages = await threadMessages(ctx, thread_id);
      expectNoneOf(messages, [SF]);
      expectExchange(messages, NYC);
    },
  },
  {
    name: 'default strategy: run 2 with none is enqueued',
    run: async (ctx) => {
      const { thread_id } = await ctx.client.threads.create();
      const run1 = await ctx.client.runs.create(thread_id, ctx.assistantId, {
        input: userInput(SF),
      });
      const run2 = await ctx.client.runs.create(thread_id, ctx.assistantId, {
        input: userInput(NYC),
      });
      check(run2.status === 'pending', `run 2 started as ${run2.status}, expected pending`);
      await ctx.client.runs.join(thread_id, run2.run_id);
      const done = await ctx.client.runs.get(thread_id, run1.run_id);
      check(done.status === 'success', `run 1 ended ${done.status}, expected success`);
      const messages = await threadMessages(ctx, thread_id);
      expectExchange(messages.slice(0, 4), SF);
      expectExchange(messages, NYC, 4);
    },
  },
];
