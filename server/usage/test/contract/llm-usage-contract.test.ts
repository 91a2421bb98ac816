import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { LLM_GROUP_BY_VALUES, type LlmGroupBy } from '@contracts/usage/llm-usage-schema';
import { strideForRange } from '@contracts/usage/stride';
import { DAY_MS, HOUR_MS } from '@contracts/usage/time';
import { llmUsageCsv, llmUsageJson, llmUsageJsonBytes } from '@server/usage/http/render-llm-usage';
import type { LlmUsage } from '@server/usage/ingest/llm-usage';
import { DEFAULT_MODEL_PRICES } from '@server/usage/model/default-model-prices';
import { llmAnswerRows } from '@server/usage/model/llm-answer';
import type { LlmQueryPlan, LlmUsageRow } from '@server/usage/model/llm-usage-plan';
import { priceLlmRun } from '@server/usage/model/price-llm-run';
import { stableUuid } from '@server/usage/seed/stable-uuid';
import type { UsageStoreWithFixtures } from '@server/usage/store/usage-store';
import {
  freshStore,
  HAVE_SCALE_OUT_SERVERS,
  openStoreWithFixtures,
  type FreshStore,
} from './fresh-stores';

const DAY0 = Date.parse('2026-03-02T00:00:00Z');
const W0 = { id: stableUuid('llm-contract', 'w0'), name: 'Acme, Inc.' };
const W1 = { id: stableUuid('llm-contract', 'w1'), name: 'Zoë’s lab' };
const WORKSPACES = [W0, W1];
const PROJECTS = ['=HYPERLINK("x")', 'chat', 'Ünïcode'];
const USERS = [
  { id: stableUuid('llm-contract', 'u0'), email: 'ada@example.com' },
  { id: stableUuid('llm-contract', 'u1'), email: 'bob@example.com' },
  null,
];
const KEYS = [{ id: stableUuid('llm-contract', 'k0'), shortKey: 'lsv2_…a1' }, null];
const MODELS: [string | null, string | null][] = [
  ['gpt-4o', 'openai'],
  ['gpt-4o-mini', 'openai'],
  ['claude-sonnet-4-20250514', 'anthropic'],
  ['mystery-model', 'acme'],
  [null, null],
  ['gpt-4o', 'azure'],
];

interface Sent {
  atMs: number;
  workspace: typeof W0;
  project: string;
  user: (typeof USERS)[number];
  key: (typeof KEYS)[number];
  usage: LlmUsage;
}

/** Run number `i` at `atMs`: every field a function of its number (no randomness). */
function sent(i: number, atMs: number): Sent {
  const [modelName, modelProvider] = MODELS[i % MODELS.length] ?? [null, null];
  const input = 100 + ((i * 37) % 900);
  const output = 10 + ((i * 13) % 300);
  return {
    atMs,
    workspace: i % 2 === 0 ? W0 : W1,
    project: PROJECTS[i % 3] ?? 'chat',
    user: USERS[i % 3] ?? null,
    key: KEYS[i % 2] ?? null,
    usage: {
      runId: stableUuid('llm-contract-run', String(i)),
      modelName,
      modelProvider,
      inputTokens: input,
      outputTokens: output,
      totalTokens: input + output,
      cacheReadTokens: i % 4 === 0 ? Math.floor(input / 2) : 0,
      cacheCreationTokens: i % 5 === 0 ? 10 : 0,
      reasoningTokens: 0,
      declaredCost: i % 11 === 0 ? (i % 7) / 1000 : null,
    },
  };
}

/**
 * 400 runs over four days, then 60 spread over the 330 days before them (across 30-day buckets
 * and the 128-day periods the scale-out rollup keeps).
 */
const SENT: Sent[] = [
  ...Array.from({ length: 400 }, (_, i) =>
    sent(i, DAY0 + Math.floor((i * 4 * DAY_MS) / 400) + (i % 7) * 1000),
  ),
  ...Array.from({ length: 60 }, (_, i) =>
    sent(400 + i, DAY0 - 330 * DAY_MS + i * 5 * DAY_MS + ((i * 7) % 24) * HOUR_MS),
  ),
];

const RANGES: [string, number, number][] = [
  ['four whole days (day stride)', DAY0, DAY0 + 4 * DAY_MS],
  ['part of a day (hour stride)', DAY0 + DAY_MS + 3 * HOUR_MS, DAY0 + DAY_MS + 17 * HOUR_MS],
  ['from mid-day over two days', DAY0 + 12 * HOUR_MS, DAY0 + 3 * DAY_MS],
  ['a quarter (week stride)', DAY0 - 40 * DAY_MS, DAY0 + 50 * DAY_MS],
  ['a range with no runs', DAY0 + 10 * DAY_MS, DAY0 + 11 * DAY_MS],
  [
    'a year from mid-day (30-day stride)',
    DAY0 - 340 * DAY_MS + 7 * HOUR_MS,
    DAY0 + 20 * DAY_MS + 7 * HOUR_MS,
  ],
];

const bytes = (text: string | null) => (text === null ? null : Buffer.from(text, 'utf8'));
const byBytes = (a: string | null, b: string | null) => {
  const [x, y] = [bytes(a), bytes(b)];
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  return Buffer.compare(x, y);
};

/** What every backend must answer, computed from the runs sent (the reference). */
function referenceRows(plan: LlmQueryPlan): LlmUsageRow[] {
  const { grid } = plan;
  const rows = new Map<string, LlmUsageRow>();
  for (const run of SENT) {
    if (run.atMs < grid.startMs || run.atMs >= grid.endMs) continue;
    if (!plan.workspaceIds.includes(run.workspace.id)) continue;
    const bucket = Math.floor((run.atMs - grid.originMs) / grid.stepMs);
    const projectId = stableUuid('ingested-project', run.workspace.id, run.project);
    const group = {
      workspace: { dimId: run.workspace.id, label: run.workspace.name },
      project: { dimId: projectId, label: run.project },
      user: { dimId: run.user?.id ?? null, label: run.user?.email ?? null },
      api_key: { dimId: run.key?.id ?? null, label: run.key?.shortKey ?? null },
      model: { dimId: null, label: null },
    }[plan.groupBy];
    const model = plan.groupBy === 'model' ? run.usage : { modelName: null, modelProvider: null };
    const key = JSON.stringify([bucket, group.dimId, model.modelName, model.modelProvider]);
    const row = rows.get(key) ?? {
      bucket,
      ...group,
      workspace:
        plan.groupBy === 'project' ? { id: run.workspace.id, name: run.workspace.name } : null,
      modelName: model.modelName,
      modelProvider: model.modelProvider,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheCreationTokens: 0,
      totalTokens: 0,
      costNanos: 0,
      pricedRuns: 0,
      unpricedRuns: 0,
    };
    row.inputTokens += run.usage.inputTokens;
    row.outputTokens += run.usage.outputTokens;
    row.cacheReadTokens += run.usage.cacheReadTokens;
    row.cacheCreationTokens += run.usage.cacheCreationTokens;
    row.totalTokens += run.usage.totalTokens;
    const { costNanos } = priceLlmRun(DEFAULT_MODEL_PRICES, run.usage, run.atMs);
    if (costNanos === null) row.unpricedRuns += 1;
    else {
      row.pricedRuns += 1;
      row.costNanos += costNanos;
    }
    rows.set(key, row);
  }
  return [...rows.values()].sort(
    (a, b) =>
      a.bucket - b.bucket ||
      byBytes(a.label, b.label) ||
      byBytes(a.dimId, b.dimId) ||
      byBytes(a.modelName, b.modelName) ||
      byBytes(a.modelProvider, b.modelProvider),
  );
}

async function arrange(store: UsageStoreWithFixtures): Promise<void> {
  for (const workspace of WORKSPACES) {
    await store.catalog.createWorkspace({
      id: workspace.id,
      displayName: workspace.name,
      createdAt: new Date(DAY0),
    });
  }
  for (const user of USERS) {
    if (user)
      await store.fixtures.putDimension({ groupBy: 'user', id: user.id, label: user.email });
  }
  for (const key of KEYS) {
    if (!key) continue;
    const workspaceId = W0.id;
    await store.fixtures.putDimension({
      groupBy: 'api_key',
      id: key.id,
      label: key.shortKey,
      workspaceId,
    });
  }
  // One batch per sender and instant, as ingestion sends them, eight senders at a time; the first
  // runs again at the end, resent.
  const record = (run: Sent) =>
    store.llm.record({
      workspaceId: run.workspace.id,
      userId: run.user?.id ?? null,
      apiKeyId: run.key?.id ?? null,
      runs: [{ usage: run.usage, projectName: run.project, ingestedAt: new Date(run.atMs) }],
    });
  for (let at = 0; at < SENT.length; at += 8) await Promise.all(SENT.slice(at, at + 8).map(record));
  for (const run of SENT.slice(0, 3)) await record(run);
}

const kinds = HAVE_SCALE_OUT_SERVERS ? (['duckdb', 'clickhouse'] as const) : (['duckdb'] as const);

describe.each(kinds)('LLM usage contract (%s)', (kind) => {
  let fresh: FreshStore;
  let store: UsageStoreWithFixtures;
  beforeAll(async () => {
    fresh = await freshStore(kind, 'llm-contract');
    store = await openStoreWithFixtures(fresh.choice);
    await arrange(store);
  }, 60_000);
  afterAll(async () => {
    await store.close();
    await fresh.drop();
  });

  const cases = RANGES.flatMap(([label, startMs, endMs]) =>
    LLM_GROUP_BY_VALUES.map((groupBy): [string, LlmGroupBy, number, number] => [
      label,
      groupBy,
      startMs,
      endMs,
    ]),
  );
  it.each(cases)(
    '%s by %s: JSON and CSV byte for byte',
    async (_label, groupBy, startMs, endMs) => {
      const plan: LlmQueryPlan = {
        grid: createBucketGrid(startMs, endMs, strideForRange(startMs, endMs)),
        floorMs: null,
        workspaceIds: WORKSPACES.map((workspace) => workspace.id),
        groupBy,
      };
      const answer = await store.llm.answer(plan);
      const rows = llmAnswerRows(answer);
      const expected = referenceRows(plan);
      const body = Buffer.from(llmUsageJsonBytes(plan, answer)).toString();
      expect(body).toBe(JSON.stringify(llmUsageJson(plan, expected)));
      expect(llmUsageCsv(plan, rows, true)).toBe(llmUsageCsv(plan, expected, true));
    },
  );

  it('keeps the floor and the requested workspaces', async () => {
    const startMs = DAY0;
    const endMs = DAY0 + 4 * DAY_MS;
    const plan: LlmQueryPlan = {
      grid: createBucketGrid(startMs, endMs, strideForRange(startMs, endMs)),
      floorMs: DAY0 + 2 * DAY_MS,
      workspaceIds: [W1.id],
      groupBy: 'workspace',
    };
    const rows = llmAnswerRows(await store.llm.answer(plan));
    expect(rows.map((row) => row.bucket)).toEqual([2, 3]);
    expect(rows.every((row) => row.dimId === W1.id)).toBe(true);
  });
});
