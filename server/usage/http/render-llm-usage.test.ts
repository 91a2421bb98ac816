import { describe, expect, it } from 'vitest';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { LLM_GROUP_BY_VALUES } from '@contracts/usage/llm-usage-schema';
import { strideForRange } from '@contracts/usage/stride';
import { DAY_MS } from '@contracts/usage/time';
import type { LlmQueryPlan, LlmUsageRow } from '../model/llm-usage-plan';
import { llmAnswerFromRows } from '../model/llm-answer';
import { llmUsageJson, llmUsageJsonBytes, writeCost } from './render-llm-usage';

/** A small deterministic generator (mulberry32): the cases are the same on every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LABELS = [
  null,
  'ada@example.com',
  'Zoë’s "lab"\n',
  '=HYPERLINK("x")',
  '\u0000\u2028',
  '日本',
];
const IDS = [null, '00000000-0000-4000-8000-000000000001', 'ffffffff-0000-4000-8000-00000000000f'];
const COSTS = [
  0,
  1,
  7,
  999,
  1000,
  1001,
  120_000,
  1_000_000_000,
  123_456_789_012,
  999_999_999_999_999,
  1e15,
  2 ** 52,
  0.5,
  1234.5,
];

describe('the LLM usage JSON written as bytes', () => {
  it.each(LLM_GROUP_BY_VALUES.map((groupBy) => [groupBy]))(
    'is JSON.stringify of the records, group_by=%s',
    (groupBy) => {
      const next = random(groupBy.length * 7919);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
      const startMs = Date.parse('2026-01-01T00:00:00Z');
      const endMs = startMs + 365 * DAY_MS;
      const plan: LlmQueryPlan = {
        grid: createBucketGrid(startMs, endMs, strideForRange(startMs, endMs)),
        floorMs: null,
        workspaceIds: [],
        groupBy,
      };
      // Rows of one answer: a group's id always comes with the same label and workspace.
      const groups = IDS.map((dimId, i) => ({
        dimId,
        label: dimId === null ? null : (LABELS[(i * 3) % LABELS.length] ?? null),
        workspace:
          groupBy === 'project' && dimId !== null ? { id: 'w', name: pick(['', 'W "1"']) } : null,
        modelName: pick(LABELS),
        modelProvider: pick(LABELS),
      }));
      const rows: LlmUsageRow[] = Array.from({ length: 300 }, (_, i) => ({
        ...pick(groups),
        bucket: Math.floor((i * plan.grid.count) / 300),
        inputTokens: Math.floor(next() * 2 ** 40),
        outputTokens: pick([0, 1, 10, 99_999]),
        cacheReadTokens: Math.floor(next() * 1000),
        cacheCreationTokens: 0,
        totalTokens: Math.floor(next() * 2 ** 53),
        costNanos: pick(COSTS),
        pricedRuns: pick([0, 0, 1, 12]),
        unpricedRuns: pick([0, 3]),
      }));
      const bytes = Buffer.from(llmUsageJsonBytes(plan, llmAnswerFromRows(rows))).toString();
      expect(bytes).toBe(JSON.stringify(llmUsageJson(plan, rows)));
      expect(JSON.parse(bytes)).toEqual(llmUsageJson(plan, rows));
    },
  );

  it('writes an empty answer', () => {
    const startMs = Date.parse('2026-01-01T00:00:00Z');
    const plan: LlmQueryPlan = {
      grid: createBucketGrid(startMs, startMs + DAY_MS, strideForRange(startMs, startMs + DAY_MS)),
      floorMs: null,
      workspaceIds: [],
      groupBy: 'user',
    };
    expect(Buffer.from(llmUsageJsonBytes(plan, llmAnswerFromRows([]))).toString()).toBe(
      JSON.stringify(llmUsageJson(plan, [])),
    );
  });

  it('writes every cost in dollars as String does', () => {
    const next = random(42);
    const out = Buffer.alloc(64);
    const amounts = [
      ...COSTS,
      ...Array.from({ length: 20_000 }, (_, i) => Math.floor(next() * 10 ** (3 + (i % 13)))),
    ];
    for (const nanos of amounts) {
      const end = writeCost(out, 0, nanos);
      expect(out.toString('latin1', 0, end)).toBe(String(nanos / 1e9));
    }
  });
});
