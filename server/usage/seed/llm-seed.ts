import { DAY_MS } from '@contracts/usage/time';
import type { LlmRunBatch } from '@server/usage/store/llm-usage-store';
import type { SeedDimensions } from './build-dimensions';
import type { SeedProfile } from './seed-profiles';
import { stableUuid } from './stable-uuid';

/**
 * The models the demo's LLM runs use, with their share of calls and typical sizes: priced ones of
 * three providers, and one without a list price (its runs show as unpriced until priced).
 */
const MODELS = [
  { name: 'gpt-4o', provider: 'openai', share: 5, input: 1800, output: 400, cache: 0.3 },
  { name: 'gpt-4o-mini', provider: 'openai', share: 8, input: 900, output: 200, cache: 0.2 },
  { name: 'gpt-4.1', provider: 'openai', share: 3, input: 2500, output: 600, cache: 0.4 },
  {
    name: 'claude-sonnet-4-20250514',
    provider: 'anthropic',
    share: 4,
    input: 3000,
    output: 700,
    cache: 0.5,
  },
  {
    name: 'claude-3-5-haiku-latest',
    provider: 'anthropic',
    share: 3,
    input: 1200,
    output: 250,
    cache: 0.3,
  },
  {
    name: 'gemini-2.5-flash',
    provider: 'google_genai',
    share: 4,
    input: 1500,
    output: 350,
    cache: 0.1,
  },
  {
    name: 'gemini-2.5-pro',
    provider: 'google_genai',
    share: 2,
    input: 4000,
    output: 900,
    cache: 0.2,
  },
  {
    name: 'llama-3.1-70b-instruct',
    provider: 'fireworks',
    share: 2,
    input: 1100,
    output: 300,
    cache: 0,
  },
] as const;
const SHARES = MODELS.reduce((sum, model) => sum + model.share, 0);

/** LLM runs per workspace on an average weekday (the first workspace; others fewer). */
const RUNS_PER_DAY = 24;

/** A number in [0, 1) that depends only on its inputs (mulberry32 of a folded key). */
function unit(...parts: number[]): number {
  let state = parts.reduce((hash, part) => Math.imul(hash ^ part, 0x5bd1e995) >>> 0, 0x9e3779b9);
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

/**
 * The demo's LLM usage: per workspace and (user, key) pair one batch holding its runs over the
 * profile's days, each run at its own instant. Deterministic like the traces: a run is a function
 * of its day, workspace and number within the day. Some runs declare their cost, as clients
 * computing non-linear prices do.
 */
export function llmSeedBatches(profile: SeedProfile, dims: SeedDimensions): LlmRunBatch[] {
  const batches = new Map<string, LlmRunBatch & { runs: LlmRunBatch['runs'][number][] }>();
  const days = Math.ceil((profile.toMs - profile.fromMs) / DAY_MS);
  for (const workspace of dims.workspaces) {
    const projects = dims.projects.filter((project) => project.wsIdx === workspace.idx);
    const users = dims.users.filter((user) => user.wsIdx === workspace.idx);
    const keys = dims.apiKeys.filter((key) => key.wsIdx === workspace.idx);
    if (projects.length === 0) continue;
    for (let day = 0; day < days; day += 1) {
      const dayMs = profile.fromMs + day * DAY_MS;
      const weekend = [0, 6].includes(new Date(dayMs).getUTCDay());
      const growth = 1 + day / 365;
      const runs = Math.round(RUNS_PER_DAY * workspace.weight * growth * (weekend ? 0.4 : 1));
      for (let i = 0; i < runs; i += 1) {
        const r = (salt: number) => unit(profile.seed, workspace.idx, day, i, salt);
        const atMs = dayMs + Math.floor(r(1) * DAY_MS);
        if (atMs >= profile.toMs) continue;
        const project = projects[Math.floor(r(2) * Math.min(4, projects.length))] ?? projects[0];
        const user =
          users.length > 0 ? users[Math.floor(r(3) * Math.min(3, users.length))] : undefined;
        const key = keys.length > 0 ? keys[Math.floor(r(4) * Math.min(2, keys.length))] : undefined;
        let pick = r(5) * SHARES;
        const model = MODELS.find((candidate) => (pick -= candidate.share) < 0) ?? MODELS[0];
        const input = Math.round(model.input * (0.4 + r(6) * 1.2));
        const output = Math.round(model.output * (0.4 + r(7) * 1.2));
        const cacheRead = Math.round(input * model.cache * r(8));
        const batchKey = `${workspace.id}|${user?.id ?? ''}|${key?.id ?? ''}`;
        const batch = batches.get(batchKey) ?? {
          workspaceId: workspace.id,
          userId: user?.id ?? null,
          apiKeyId: key?.id ?? null,
          runs: [],
        };
        batch.runs.push({
          projectName: project?.name ?? 'default',
          ingestedAt: new Date(atMs),
          usage: {
            runId: stableUuid('seed-llm-run', profile.seed, workspace.idx, day, i),
            modelName: model.name,
            modelProvider: model.provider,
            inputTokens: input,
            outputTokens: output,
            totalTokens: input + output,
            cacheReadTokens: cacheRead,
            cacheCreationTokens: 0,
            reasoningTokens: 0,
            declaredCost: r(9) < 0.03 ? Math.round(r(10) * 50_000) / 1_000_000 : null,
          },
        });
        batches.set(batchKey, batch);
      }
    }
  }
  return [...batches.values()];
}
