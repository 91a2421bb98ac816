import type { Client } from '@langchain/langgraph-sdk';
import { threadStateSchema } from '@contracts/deployment';
import {
  removeDataDir,
  startTestDeployment,
  userInput,
} from '@server/deployment/test/test-deployment';

/** How one streamed double-text ended, judged as a client sees it. */
export type StreamVerdict =
  | 'rolled back'
  | 'run 1 done first'
  | 'surviving rolled-back run'
  | 'foreign messages'
  | 'stream 1 ended late';

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms`;
};

/** Time from calling `runs.stream` to its first event (`metadata`), model delay 0. */
export async function measureFirstEvent(iterations: number): Promise<number[]> {
  const deployment = await startTestDeployment({ stepMs: 0 });
  try {
    const { client } = deployment;
    const firstEvent: number[] = [];
    for (let i = 0; i < iterations + 20; i += 1) {
      const { thread_id } = await client.threads.create();
      const started = performance.now();
      let first: number | undefined;
      for await (const _part of client.runs.stream(thread_id, 'agent', {
        input: userInput('sf'),
      })) {
        first ??= performance.now() - started;
      }
      if (i >= 20 && first !== undefined) firstEvent.push(first);
    }
    console.log(`Time to first streamed event, ${iterations} runs.stream calls (model delay 0):`);
    console.log(`  ${summary(firstEvent)}`);
    return firstEvent;
  } finally {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  }
}

/**
 * One thread: run 1 streamed, run 2 streamed with rollback once run 1 has started. Checks that
 * stream 1 ended within a second of run 2, that run 1 is gone (or had finished before run 2),
 * and that the thread holds exactly the surviving runs' messages.
 */
async function streamedDoubleText(client: Client, label: string) {
  const { thread_id } = await client.threads.create();
  const first = `weather in sf? (${label})`;
  const second = `weather in nyc? (${label})`;
  let runId1 = '';
  let ended1 = 0;
  let started1 = () => {};
  const running = new Promise<void>((resolve) => (started1 = resolve));
  const stream1 = (async () => {
    for await (const part of client.runs.stream(thread_id, 'agent', { input: userInput(first) })) {
      if (part.event === 'metadata') runId1 = (part.data as { run_id: string }).run_id;
      started1();
    }
    ended1 = performance.now();
  })();
  await running;
  const sent = performance.now();
  for await (const _part of client.runs.stream(thread_id, 'agent', {
    input: userInput(second),
    multitaskStrategy: 'rollback',
  })) {
    // Drained: the run's end is what counts.
  }
  await stream1;
  const endLatency = ended1 - sent;
  const state = threadStateSchema.parse(await client.threads.getState(thread_id));
  const humans = state.values.messages.filter((m) => m.type === 'human').map((m) => m.content);
  const survivor = await client.runs.get(thread_id, runId1).catch(() => undefined);
  let verdict: StreamVerdict = survivor ? 'run 1 done first' : 'rolled back';
  const expected = survivor ? [first, second] : [second];
  if (survivor && survivor.status !== 'success') verdict = 'surviving rolled-back run';
  else if (
    state.values.messages.length !== expected.length * 4 ||
    JSON.stringify(humans) !== JSON.stringify(expected)
  ) {
    verdict = 'foreign messages';
  } else if (!survivor && endLatency > 1000) verdict = 'stream 1 ended late';
  return { verdict, endLatency };
}

/** `threads` streamed double-texts at once, model step `stepMs`. */
export async function measureStreamedLoad(threads: number, stepMs: number) {
  const deployment = await startTestDeployment({ stepMs });
  try {
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: threads }, (_, i) => streamedDoubleText(deployment.client, `s${i}`)),
    );
    const wall = performance.now() - started;
    const counts = new Map<StreamVerdict, number>();
    outcomes.forEach(({ verdict }) => counts.set(verdict, (counts.get(verdict) ?? 0) + 1));
    const rolledBack = outcomes.filter((o) => o.verdict === 'rolled back');
    console.log(`${threads} streamed double-texts at once (model step ${stepMs} ms):`);
    console.log(
      `  ${wall.toFixed(0)} ms wall; outcomes: ${[...counts].map(([v, n]) => `${v}: ${n}`).join(', ')}`,
    );
    if (rolledBack.length > 0) {
      console.log(
        `  stream 1 ended after run 2 was sent: ${summary(rolledBack.map((o) => o.endLatency))}`,
      );
    }
    return outcomes.map((o) => o.verdict);
  } finally {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  }
}
