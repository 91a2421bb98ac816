import { Client } from '@langchain/langgraph-sdk';
import { describe, expect, it } from 'vitest';
import { FlowCancelledError, FlowError } from '@/features/playground/model/flow-error';
import { runDoubleText, type DoubleTextRequest } from './run-double-text';

interface FakeOptions {
  /** Status and body answered to the second POST /runs (run 2). */
  run2?: { status: number; body: unknown };
  /** Status and body answered to the first POST /runs (run 1). */
  run1?: { status: number; body: unknown };
  run1Lookup?: { status: number; body: unknown };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const thread = { values: { messages: [{ type: 'human', content: 'nyc?' }] } };

/** A scripted deployment behind the SDK's own fetch hook; it records every request it gets. */
function fakeDeployment(options: FakeOptions = {}) {
  const requests: string[] = [];
  let runsCreated = 0;
  const fetch = async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? init.body : '';
    requests.push(`${method} ${url.pathname} ${body}`.trim());
    const path = url.pathname.replace('/dep', '');
    if (method === 'POST' && path === '/threads') return json(200, { thread_id: 't1' });
    if (method === 'POST' && path === '/threads/t1/runs') {
      runsCreated += 1;
      const answer = runsCreated === 1 ? options.run1 : options.run2;
      return answer ? json(answer.status, answer.body) : json(200, { run_id: `r${runsCreated}` });
    }
    if (path.endsWith('/join')) return json(200, thread.values);
    if (method === 'POST' && path.endsWith('/cancel')) return new Response(null, { status: 202 });
    if (path === '/threads/t1/state') return json(200, thread);
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
  first: 'sf?',
  second: 'nyc?',
  delayMs: 0,
  strategy: 'rollback',
};

describe('runDoubleText', () => {
  it('runs the rollback flow and reports run 1 deleted when it answers 404', async () => {
    const { client, requests } = fakeDeployment({
      run1Lookup: { status: 404, body: { detail: 'Run r1 not found' } },
    });
    const seen: string[] = [];
    const outcome = await runDoubleText({
      ...request,
      client,
      signal: new AbortController().signal,
      onStep: (step) => seen.push(step.kind),
    });

    expect(outcome.steps.map((step) => step.kind)).toEqual([
      'thread-created',
      'run1-created',
      'run2-created',
      'run2-finished',
      'state-read',
      'run1-looked-up',
    ]);
    expect(seen).toEqual(outcome.steps.map((step) => step.kind));
    expect(outcome).toMatchObject({ run1Id: 'r1', run2Id: 'r2', run2Status: 'success' });
    expect(outcome.fate.kind).toBe('deleted');
    expect(outcome.messages).toHaveLength(1);
    const creates = requests.filter((line) => line.startsWith('POST /dep/threads/t1/runs '));
    expect(JSON.parse(creates[1]?.split(' ').slice(2).join(' ') ?? 'null')).toMatchObject({
      assistant_id: 'agent',
      multitask_strategy: 'rollback',
      input: { messages: [{ role: 'user', content: 'nyc?' }] },
    });
  });

  it('records a reject as run 2 refused, then waits for run 1', async () => {
    const { client } = fakeDeployment({
      run2: { status: 409, body: { detail: 'thread busy' } },
    });
    const outcome = await runDoubleText({
      ...request,
      strategy: 'reject',
      delayMs: 5,
      client,
      signal: new AbortController().signal,
    });
    expect(outcome.steps.map((step) => step.kind)).toEqual([
      'thread-created',
      'run1-created',
      'waited',
      'run2-rejected',
      'run1-finished',
      'state-read',
      'run1-looked-up',
    ]);
    expect(outcome.rejection).toEqual({ status: 409, message: 'thread busy' });
    expect(outcome.fate.words).toBe('second run rejected (409, thread busy)');
  });

  it('fails with the stage when the assistant is unknown', async () => {
    const { client } = fakeDeployment({
      run1: { status: 404, body: { detail: 'Assistant nope not found' } },
    });
    const failure = runDoubleText({ ...request, client, signal: new AbortController().signal });
    await expect(failure).rejects.toBeInstanceOf(FlowError);
    await expect(failure).rejects.toMatchObject({ stage: 'run1-create' });
  });

  it('treats a 409 under another strategy as a failure, not a rejection', async () => {
    const { client } = fakeDeployment({ run2: { status: 409, body: { detail: 'busy' } } });
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
        if (step.kind === 'run1-created') controller.abort();
      },
    });
    await expect(flow).rejects.toBeInstanceOf(FlowCancelledError);
    await expect.poll(() => requests).toContain('POST /dep/threads/t1/runs/r1/cancel');
    expect(requests.some((line) => line.includes('/join'))).toBe(false);
  });
});
