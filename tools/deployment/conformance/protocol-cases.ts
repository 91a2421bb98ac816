import { randomUUID } from 'node:crypto';
import { Client } from '@langchain/langgraph-sdk';
import {
  ALL_CHANNELS,
  completedTimes,
  openThreadStream,
  readEvents,
  rootLifecycles,
  sendCommand,
  within,
} from '@server/deployment/test/protocol-clients';
import type { ConformanceResult } from './run-conformance';

const SF = { messages: [{ role: 'user', content: 'weather in sf?' }] };
const NYC = { messages: [{ role: 'user', content: "what's the weather in nyc?" }] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface CaseContext {
  url: string;
  client: Client;
}

/** Fails the case with `reason` unless `ok`. */
function check(ok: boolean, reason: string): void {
  if (!ok) throw new Error(reason);
}

/** The thread's messages as `type: text` (`ai: get_weather(...)` for a tool call). */
async function conversation({ client }: CaseContext, threadId: string): Promise<string[]> {
  const state = await client.threads.getState<{ messages?: Array<Record<string, unknown>> }>(
    threadId,
  );
  return (state.values.messages ?? []).map((message) => {
    const calls = message.tool_calls as Array<{ name: string }> | undefined;
    if (calls?.length) return `ai: ${calls[0]?.name ?? ''}()`;
    const content = message.content;
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    return `${String(message.type)}: ${text.slice(0, 40)}`;
  });
}

async function waitForMessages(ctx: CaseContext, threadId: string, count: number) {
  for (let i = 0; i < 1000; i += 1) {
    if ((await conversation(ctx, threadId).catch(() => [])).length >= count) return;
    await sleep(10);
  }
  throw new Error(`thread never reached ${count} messages`);
}

async function singleRun(ctx: CaseContext, transport: 'sse' | 'websocket') {
  const threadId = randomUUID();
  const thread = openThreadStream(ctx.url, threadId, transport);
  try {
    await thread.run.start({ input: SF });
    const output = (await within(thread.output, 20_000, 'final values')) as { messages: unknown[] };
    check(output.messages.length === 4, `output has ${output.messages.length} messages, not 4`);
    const shown = await conversation(ctx, threadId);
    check(shown.length === 4, `thread: ${JSON.stringify(shown)}`);
  } finally {
    await thread.close();
  }
}

async function doubleText(ctx: CaseContext) {
  const threadId = randomUUID();
  const first = openThreadStream(ctx.url, threadId, 'sse');
  const second = openThreadStream(ctx.url, threadId, 'sse');
  try {
    const run1 = await first.run.start({ input: SF });
    await waitForMessages(ctx, threadId, 2);
    await second.run.start({ input: NYC, multitaskStrategy: 'rollback' });
    await within(second.output, 20_000, 'run 2 values');
    await sleep(500);
    const shown = await conversation(ctx, threadId);
    const run1Status = await ctx.client.runs.get(threadId, run1.run_id ?? '').then(
      (run) => String(run.status),
      (error: { status?: number }) => String(error.status),
    );
    check(
      shown.length === 4 && shown[0]?.includes('nyc') === true && run1Status === '404',
      `thread ${JSON.stringify(shown)}, run 1 answers ${run1Status}`,
    );
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
}

async function seqAcrossRuns(ctx: CaseContext) {
  const threadId = randomUUID();
  const observed = readEvents(
    ctx.url,
    threadId,
    { channels: ALL_CHANNELS },
    completedTimes(2),
    30_000,
  );
  await sleep(200);
  await sendCommand(ctx.url, threadId, {
    id: 1,
    method: 'run.start',
    params: { assistant_id: 'agent', input: SF },
  });
  await sendCommand(ctx.url, threadId, {
    id: 2,
    method: 'run.start',
    params: { assistant_id: 'agent', input: NYC, multitaskStrategy: 'enqueue' },
  });
  const events = await observed;
  const seqs = events.map((event) => event.seq);
  const lifecycles = rootLifecycles(events);
  check(
    seqs.every((seq, i) => seq === i + 1),
    `seqs not 1..N: ${seqs.slice(0, 12).join(',')}...`,
  );
  check(
    lifecycles.join() === 'running,completed,running,completed',
    `root lifecycles ${lifecycles.join()}`,
  );
}

async function interruptRespond(ctx: CaseContext) {
  const threadId = randomUUID();
  const thread = openThreadStream(ctx.url, threadId, 'sse', 'approval');
  try {
    await thread.run.start({ input: { messages: [{ role: 'user', content: 'refund order 42' }] } });
    for (let i = 0; i < 1000 && thread.interrupts.length === 0; i += 1) await sleep(10);
    const interrupt = thread.interrupts[0];
    check(interrupt !== undefined, 'no input.requested');
    await thread.input.respond({
      namespace: [],
      interrupt_id: interrupt?.interruptId ?? '',
      response: 'yes',
    });
    await within(thread.output, 20_000, 'the resumed run');
    await sleep(300);
    const shown = await conversation(ctx, threadId);
    check(shown.at(-1) === 'ai: approved: yes', `thread ${JSON.stringify(shown)}`);
  } finally {
    await thread.close();
  }
}

async function refusals(ctx: CaseContext) {
  const threadId = randomUUID();
  const unknown = await sendCommand(ctx.url, threadId, { id: 1, method: 'foo.bar' });
  check(unknown.body.error === 'unknown_command', `foo.bar -> ${JSON.stringify(unknown.body)}`);
  const strict = await fetch(`${ctx.url}/threads/${threadId}/stream/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channels: ['values'], foo: 1 }),
  });
  check(strict.status >= 400 && strict.status < 500, `unknown filter key -> ${strict.status}`);
}

const CASES: Array<[string, (ctx: CaseContext) => Promise<void>]> = [
  ['ThreadStream over SSE: one run', (ctx) => singleRun(ctx, 'sse')],
  ['ThreadStream over WebSocket: one run', (ctx) => singleRun(ctx, 'websocket')],
  ['double-text rollback: thread = run 2, run 1 404', doubleText],
  ['one seq per thread across two runs', seqAcrossRuns],
  ['interrupt + input.respond (graph approval)', interruptRespond],
  ['unknown_command; strict events filter 4xx', refusals],
];

/** Runs the protocol v2 cases against a deployment serving `agent` (and `approval`). */
export async function runProtocolCases(url: string): Promise<ConformanceResult[]> {
  const ctx = { url, client: new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } }) };
  const results: ConformanceResult[] = [];
  for (const [name, run] of CASES) {
    const started = performance.now();
    const outcome = await run(ctx).then(
      () => '',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    results.push({
      name,
      pass: outcome === '',
      reason: outcome,
      ms: Math.round(performance.now() - started),
    });
  }
  return results;
}
