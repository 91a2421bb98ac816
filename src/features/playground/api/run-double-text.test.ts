import { Client } from '@langchain/langgraph-sdk';
import { describe, expect, it } from 'vitest';
import { FlowCancelledError, FlowError } from '@/features/playground/model/flow-error';
import { describeMessages } from '@/features/playground/model/message-origins';
import { weatherRun } from '@/features/playground/testing/make-outcome';
import { runDoubleText, type DoubleTextRequest } from './run-double-text';

type SseEvent = [event: string, data: unknown];

interface FakeOptions {
  /** What run 1's stream sends after run 2 was sent (then it closes). */
  run1Tail?: SseEvent[];
  /** The answer to run 2's stream request when it is refused. */
  run2Refusal?: { status: number; body: unknown };
  /** The answer to run 1's stream request when it is refused. */
  run1Refusal?: { status: number; body: unknown };
  run1Lookup?: { status: number; body: unknown };
  finalMessages?: unknown[];
  /** Run 1's tool call streams this long after its question (a model step). */
  toolCallAfterMs?: number;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const sse = (event: SseEvent) => `event: ${event[0]}\ndata: ${JSON.stringify(event[1])}\n\n`;

const sf = weatherRun('sf', 'r1');
const nyc = weatherRun('nyc', 'r2');

/**
 * A scripted deployment behind the SDK's own fetch hook. Run 1 streams its first two messages,
 * then holds its stream open until run 2 is requested, then sends `run1Tail` and closes.
 */
function fakeDeployment(options: FakeOptions = {}) {
  const requests: string[] = [];
  let streams = 0;
  let releaseRun1: () => void = () => undefined;
  const run2Requested = new Promise<void>((resolve) => (releaseRun1 = resolve));
  const fetch = async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? init.body : '';
    requests.push(`${method} ${url.pathname} ${body}`.trim());
    const path = url.pathname.replace('/dep', '');
    if (method === 'POST' && path === '/threads') return json(200, { thread_id: 't1' });
    if (method === 'POST' && path === '/threads/t1/runs/stream') {
      streams += 1;
      if (streams === 1) {
        if (options.run1Refusal) return json(options.run1Refusal.status, options.run1Refusal.body);
        const head: SseEvent[] = [
          ['metadata', { run_id: 'r1' }],
          ['values', { messages: sf.slice(0, 1) }],
          ['values', { messages: sf.slice(0, 2) }],
        ];
        const tail = options.run1Tail ?? [['error', { error: 'RunRolledBack', message: 'gone' }]];
        const stream = new ReadableStream<Uint8Array>({
          async start(controller) {
            const encoder = new TextEncoder();
            for (const [index, event] of head.entries()) {
              if (index === 2 && options.toolCallAfterMs) {
                await new Promise((resolve) => setTimeout(resolve, options.toolCallAfterMs));
              }
              controller.enqueue(encoder.encode(sse(event)));
            }
            await run2Requested;
            tail.forEach((event) => controller.enqueue(encoder.encode(sse(event))));
            controller.close();
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
      }
      return json(500, { detail: 'one streamed create only' });
    }
    if (method === 'POST' && path === '/threads/t1/runs') {
      releaseRun1();
      if (options.run2Refusal) return json(options.run2Refusal.status, options.run2Refusal.body);
      return json(200, { run_id: 'r2' });
    }
    if (method === 'GET' && path === '/threads/t1/runs/r2/stream') {
      const events: SseEvent[] = [
        ['metadata', { run_id: 'r2' }],
        ['values', { messages: nyc.slice(0, 1) }],
        ['values', { messages: nyc }],
      ];
      return new Response(events.map(sse).join(''), {
        headers: { 'content-type': 'text/event-stream' },
      });
    }
    if (method === 'POST' && path.endsWith('/cancel')) return new Response(null, { status: 202 });
    if (path === '/threads/t1/state') {
      return json(200, { values: { messages: options.finalMessages ?? nyc } });
    }
    if (path === '/threads/t1/runs/r1' && options.run1Lookup) {
      return json(options.run1Lookup.status, options.run1Lookup.body);
    }
    const run = /\/runs\/(r\d)$/.exec(path);
    if (run) return json(200, { run_id: run[1], status: 'success' });
    return json(404, { detail: 'Not Found' });
  };
  const client = new Client({
    apiUrl: 'http://fake/dep',
    apiKey: null,
    callerOptions: { fetch, maxRetries: 0 },
  });
  return { client, requests };
}

const request: DoubleTextRequest = {
  assistantId: 'agent',
  first: "what's the weather in sf?",
  second: "what's the weather in nyc?",
  delayMs: 0,
  strategy: 'rollback',
};

describe('runDoubleText', () => {
  it.each([
    // Run 2 waits for run 1's tool call: run 1 is provably mid-run when it is sent.
    ['tool-call', (toolCall: number, sent: number) => expect(sent).toBeGreaterThan(toolCall)],
    // From the first message, run 2 is sent during run 1's model step, before its tool call.
    ['first-message', (toolCall: number, sent: number) => expect(sent).toBeLessThan(toolCall)],
  ] as const)('sends run 2 after run 1 streams its %s', async (sendAfter, check) => {
    const { client } = fakeDeployment({
      toolCallAfterMs: 40,
      run1Lookup: { status: 404, body: { detail: 'Run r1 not found' } },
    });
    const outcome = await runDoubleText({
      ...request,
      sendAfter,
      client,
      signal: new AbortController().signal,
    });
    const labels = outcome.steps.map((step) => step.label);
    check(
      labels.indexOf('Run 1 · AI · tool call get_weather'),
      labels.indexOf('Run 2 sent (rollback)'),
    );
    expect(outcome.fate.kind).toBe('deleted');
  });

  it('streams run 1, sends run 2, sees run 1 rolled back and what it streamed erased', async () => {
    const { client, requests } = fakeDeployment({
      run1Lookup: { status: 404, body: { detail: 'Run r1 not found' } },
    });
    const live: string[] = [];
    const outcome = await runDoubleText({
      ...request,
      client,
      signal: new AbortController().signal,
      onMessage: (message) => live.push(`${message.run}:${message.key}`),
    });

    const kinds = outcome.steps.map((step) => step.kind);
    const labels = outcome.steps.map((step) => step.label);
    expect(kinds[0]).toBe('thread-created');
    // Run 1's question streamed before run 2 was sent; run 1's stream ended after that.
    const question = labels.indexOf("Run 1 · Human: what's the weather in sf?");
    expect(question).toBeGreaterThan(0);
    expect(kinds.indexOf('run2-sent')).toBeGreaterThan(question);
    expect(kinds.indexOf('run2-started')).toBeGreaterThan(kinds.indexOf('run2-sent'));
    expect(kinds.indexOf('run1-ended')).toBeGreaterThan(kinds.indexOf('run2-sent'));
    expect(kinds.slice(-2)).toEqual(['state-read', 'run1-looked-up']);
    expect(outcome.steps.find((step) => step.kind === 'run1-ended')?.detail).toBe(
      'RunRolledBack: gone',
    );
    expect(live).toEqual(['1:r1-h', '1:r1-a1', '2:r2-h', '2:r2-a1', '2:r2-t', '2:r2-a2']);
    expect(outcome).toMatchObject({ run1Id: 'r1', run2Id: 'r2', run2Status: 'success' });
    expect(outcome.run1End).toEqual({ kind: 'error', error: 'RunRolledBack', message: 'gone' });
    expect(outcome.fate.kind).toBe('deleted');
    const { kept, erased } = describeMessages(outcome.messages, outcome.streamed);
    expect(kept.map((entry) => entry.key)).toEqual(['r2-h', 'r2-a1', 'r2-t', 'r2-a2']);
    expect(erased.map((entry) => entry.key)).toEqual(['r1-h', 'r1-a1']);

    const body = (prefix: string) =>
      JSON.parse(
        requests
          .find((line) => line.startsWith(prefix))
          ?.split(' ')
          .slice(2)
          .join(' ') ?? 'null',
      ) as unknown;
    expect(body('POST /dep/threads/t1/runs/stream ')).toMatchObject({
      assistant_id: 'agent',
      stream_mode: 'values',
      input: { messages: [{ role: 'user', content: "what's the weather in sf?" }] },
    });
    expect(body('POST /dep/threads/t1/runs ')).toMatchObject({
      assistant_id: 'agent',
      multitask_strategy: 'rollback',
      input: { messages: [{ role: 'user', content: "what's the weather in nyc?" }] },
    });
    expect(requests).toContain('GET /dep/threads/t1/runs/r2/stream');
  });

  it('records a reject as run 2 refused (409) while run 1 completes', async () => {
    const { client } = fakeDeployment({
      run2Refusal: { status: 409, body: { detail: 'thread busy' } },
      run1Tail: [['values', { messages: sf }]],
      finalMessages: sf,
    });
    const outcome = await runDoubleText({
      ...request,
      strategy: 'reject',
      delayMs: 5,
      client,
      signal: new AbortController().signal,
    });
    const kinds = outcome.steps.map((step) => step.kind);
    expect(kinds).toContain('waited');
    expect(kinds.indexOf('run2-rejected')).toBeGreaterThan(kinds.indexOf('run2-sent'));
    expect(kinds).not.toContain('run2-started');
    expect(outcome.rejection).toEqual({ status: 409, message: 'thread busy' });
    expect(outcome.run2Fate.words).toBe('refused (409): thread busy');
    expect(outcome.fate.words).toBe('completed — run 2 was refused (409)');
    expect(outcome.run1End).toEqual({ kind: 'closed' });
    expect(describeMessages(outcome.messages, outcome.streamed).erased).toEqual([]);
  });

  it('fails with the stage when the assistant is unknown', async () => {
    const { client } = fakeDeployment({
      run1Refusal: { status: 404, body: { detail: 'Assistant nope not found' } },
    });
    const failure = runDoubleText({ ...request, client, signal: new AbortController().signal });
    await expect(failure).rejects.toBeInstanceOf(FlowError);
    await expect(failure).rejects.toMatchObject({ stage: 'run1-create' });
  });

  it("opens run 2's stream only after run 1's has closed when asked to (compare)", async () => {
    const { client, requests } = fakeDeployment();
    const outcome = await runDoubleText({
      ...request,
      joinRun2: 'after-run-1',
      client,
      signal: new AbortController().signal,
    });
    const kinds = outcome.steps.map((step) => step.kind);
    expect(kinds.indexOf('run2-ended')).toBeGreaterThan(kinds.indexOf('run1-ended'));
    expect(requests).toContain('GET /dep/threads/t1/runs/r2/stream');
    expect(outcome.streamed.filter((item) => item.run === 2)).toHaveLength(4);
  });

  it('treats a 409 under another strategy as a failure, not a rejection', async () => {
    const { client } = fakeDeployment({ run2Refusal: { status: 409, body: { detail: 'busy' } } });
    await expect(
      runDoubleText({ ...request, client, signal: new AbortController().signal }),
    ).rejects.toMatchObject({ stage: 'run2-create' });
  });

  it('stops at once on cancel and cancels the runs it created', async () => {
    const { client, requests } = fakeDeployment();
    const controller = new AbortController();
    const flow = runDoubleText({
      ...request,
      delayMs: 60_000,
      client,
      signal: controller.signal,
      onStep: (step) => {
        if (step.kind === 'run1-started') controller.abort();
      },
    });
    await expect(flow).rejects.toBeInstanceOf(FlowCancelledError);
    await expect.poll(() => requests).toContain('POST /dep/threads/t1/runs/r1/cancel');
    expect(requests.filter((line) => line.includes('/runs'))).toEqual([
      expect.stringContaining('POST /dep/threads/t1/runs/stream'),
      'POST /dep/threads/t1/runs/r1/cancel',
    ]);
  });
});
