import type { Client } from '@langchain/langgraph-sdk';
import { threadStateSchema } from '@contracts/deployment';
import { userInput } from '@server/deployment/test/test-deployment';

/** How one double-texted thread ended, judged from outside as a client sees it. */
export type Verdict =
  'rolled back' | 'run 1 done first' | 'surviving rolled-back run' | 'foreign messages';

/** Run 1 on `client`, run 2 (rollback) on `other` (another replica, or the same client). */
export async function doubleText(
  client: Client,
  label: string,
  other: Client = client,
): Promise<Verdict> {
  const threadId = (await client.threads.create()).thread_id;
  const first = `weather in sf? (${label})`;
  const second = `weather in nyc? (${label})`;
  const run1 = await client.runs.create(threadId, 'agent', { input: userInput(first) });
  const run2 = await other.runs.create(threadId, 'agent', {
    input: userInput(second),
    multitaskStrategy: 'rollback',
  });
  await other.runs.join(threadId, run2.run_id);
  const state = threadStateSchema.parse(await client.threads.getState(threadId));
  const humans = state.values.messages.filter((m) => m.type === 'human').map((m) => m.content);
  const survivor = await client.runs.get(threadId, run1.run_id).catch(() => undefined);
  // With no model delay run 1 may legitimately finish before run 2 arrives: then it stays.
  if (survivor && (survivor.status !== 'success' || survivor.updated_at > run2.created_at)) {
    return 'surviving rolled-back run';
  }
  const expected = survivor ? [first, second] : [second];
  const exact = state.values.messages.length === expected.length * 4;
  const same = exact && JSON.stringify(humans) === JSON.stringify(expected);
  if (!same) return 'foreign messages';
  return survivor ? 'run 1 done first' : 'rolled back';
}

/** How many rollback flows a measure runs: `warmUp` first, then `iterations` timed. */
export interface FlowCount {
  iterations: number;
  warmUp: number;
}

/** p50/p95 of `iterations` rollback flows after `warmUp` ones, run 1 on `a`, run 2 on `b`. */
export async function flowTimes(a: Client, b: Client, flows: FlowCount, verdicts: Verdict[]) {
  for (let i = 0; i < flows.warmUp; i += 1) await doubleText(a, `warm-up ${i}`, b);
  const durations: number[] = [];
  for (let i = 0; i < flows.iterations; i += 1) {
    const started = performance.now();
    verdicts.push(await doubleText(a, `flow ${i}`, b));
    durations.push(performance.now() - started);
  }
  durations.sort((x, y) => x - y);
  const [p50, p95] = [percentile(durations, 50), percentile(durations, 95)];
  return `p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function tally(verdicts: Verdict[]): string {
  const counts = new Map<Verdict, number>();
  verdicts.forEach((v) => counts.set(v, (counts.get(v) ?? 0) + 1));
  return [...counts].map(([verdict, n]) => `${verdict}: ${n}`).join(', ');
}
