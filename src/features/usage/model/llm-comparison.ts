import { NANO_USD_PER_USD, type LlmUsageRecord } from '@contracts/usage/llm-usage-schema';
import type { GroupBy } from '@contracts/usage/usage-schema';
import { comparePeriods, type PeriodChange } from './compare-periods';
import type { LlmMatrices } from './llm-matrices';
import type { ComparisonPlan } from './measured-comparison';
import { foldedSeries, OTHER_KEY } from './top-series';
import { describeGroup } from './usage-matrix';

/** What the LLM cards compare, summed over a period (or a group of it). */
export interface LlmSums {
  /** Cost of the priced runs, in nano-dollars (exact sums, as the server keeps them). */
  costNanos: number;
  /** Records with a known cost: none means no run of the period was priced. */
  pricedRecords: number;
  unpricedRuns: number;
  inputTokens: number;
  outputTokens: number;
}

/** A period's sums over every group, and per group (keyed as the chart keys its series). */
export interface LlmPeriodSums {
  total: LlmSums;
  byGroup: ReadonlyMap<string, LlmSums>;
}

const ZERO: LlmSums = {
  costNanos: 0,
  pricedRecords: 0,
  unpricedRuns: 0,
  inputTokens: 0,
  outputTokens: 0,
};

const add = (a: LlmSums, b: LlmSums): LlmSums => ({
  costNanos: a.costNanos + b.costNanos,
  pricedRecords: a.pricedRecords + b.pricedRecords,
  unpricedRuns: a.unpricedRuns + b.unpricedRuns,
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});

/** Records of one period summed, in all and by the view's group. */
export function sumLlmRecords(records: readonly LlmUsageRecord[], groupBy: GroupBy): LlmPeriodSums {
  const byGroup = new Map<string, LlmSums>();
  let total = ZERO;
  for (const record of records) {
    const sums: LlmSums = {
      costNanos: Math.round((record.cost ?? 0) * NANO_USD_PER_USD),
      pricedRecords: record.cost === null ? 0 : 1,
      unpricedRuns: record.unpriced_runs,
      inputTokens: record.input_tokens,
      outputTokens: record.output_tokens,
    };
    const { key } = describeGroup(record.dimensions, groupBy);
    byGroup.set(key, add(byGroup.get(key) ?? ZERO, sums));
    total = add(total, sums);
  }
  return { total, byGroup };
}

/** The screen's own sums (the whole view), in all and by group, from its matrices. */
export function sumLlmMatrices(matrices: LlmMatrices): LlmPeriodSums {
  const of = (key: string | null): LlmSums => {
    const pick = (name: keyof LlmMatrices) =>
      key === null ? matrices[name].total : (matrices[name].totals.get(key) ?? 0);
    return {
      costNanos: pick('cost_nanos'),
      pricedRecords: pick('priced_records'),
      unpricedRuns: pick('unpriced_runs'),
      inputTokens: pick('input_tokens'),
      outputTokens: pick('output_tokens'),
    };
  };
  const byGroup = new Map(
    matrices.total_tokens.series.map((series) => [series.key, of(series.key)]),
  );
  return { total: of(null), byGroup };
}

/**
 * The group keys a focus covers: one group, or every group "Other" folds (ranked by tokens, as
 * the chart ranks them); null for every group (no focus, or none of the view's groups).
 */
export function focusKeys(matrices: LlmMatrices, focus: string | null): string[] | null {
  const { series } = matrices.total_tokens;
  const keys =
    focus === OTHER_KEY
      ? foldedSeries(matrices.total_tokens).map((item) => item.key)
      : series.filter((item) => item.key === focus).map((item) => item.key);
  // A focus on a group this view does not hold shows every group, as on Traces.
  return keys.length === 0 ? null : keys;
}

/** A period's sums narrowed to the chart's focus; the whole period without one. */
export function focusedSums(
  period: LlmPeriodSums,
  matrices: LlmMatrices,
  focus: string | null,
): LlmSums {
  const keys = focusKeys(matrices, focus);
  if (keys === null) return period.total;
  return keys.reduce((sum, key) => add(sum, period.byGroup.get(key) ?? ZERO), ZERO);
}

/**
 * Dollars of a period, or null when unknown: runs were sent but none of them is priced. A period
 * without any run spent nothing ($0), which is known.
 */
export function costOf(sums: LlmSums): number | null {
  if (sums.pricedRecords === 0) return sums.unpricedRuns > 0 ? null : 0;
  return sums.costNanos / NANO_USD_PER_USD;
}

/** A cost's change: as a count's, or `unknown` when either side's cost is (never a 0 then). */
export type CostChange = PeriodChange | { kind: 'unknown' };

const inDollars = (change: PeriodChange): PeriodChange =>
  'delta' in change ? { ...change, delta: change.delta / NANO_USD_PER_USD } : change;

/** The three figures the LLM cards compare with the previous period. */
export interface LlmChanges {
  cost: CostChange;
  inputTokens: PeriodChange;
  outputTokens: PeriodChange;
}

/**
 * The changes against the previous period; every one `unmeasured` when that period lies before
 * the data floor. A cost is compared only when both sides are known: a period whose runs are all
 * unpriced has no dollar figure, so neither a percentage on it nor a "from zero" is honest.
 */
export function compareLlmPeriods(
  current: LlmSums,
  previous: LlmSums,
  measured: boolean,
): LlmChanges {
  const known = costOf(current) !== null && costOf(previous) !== null;
  // Compared in nano-dollars, so the delta is exact; shown in dollars.
  const nanos = comparePeriods(current.costNanos, previous.costNanos, measured);
  return {
    cost: !measured || known ? inDollars(nanos) : { kind: 'unknown' },
    inputTokens: comparePeriods(current.inputTokens, previous.inputTokens, measured),
    outputTokens: comparePeriods(current.outputTokens, previous.outputTokens, measured),
  };
}

/**
 * The sides of a measured comparison: `current` is null when the comparison covers the whole view
 * (the screen's own sums are the current side), else the sums of the plan's current window.
 */
export interface LlmComparisonSums {
  previous: LlmPeriodSums;
  current: LlmPeriodSums | null;
}

/** What the cards show against the previous period, for the focused group or all. */
export type LlmCardComparison =
  | { measured: false; changes: LlmChanges }
  | { measured: true; previous: LlmSums; changes: LlmChanges };

/** Undefined while the previous period's sums load (or failed). */
export function llmCardComparison(
  plan: ComparisonPlan,
  matrices: LlmMatrices,
  sides: LlmComparisonSums | undefined,
  focus: string | null,
): LlmCardComparison | undefined {
  if (plan.kind === 'unmeasured') {
    return { measured: false, changes: compareLlmPeriods(ZERO, ZERO, false) };
  }
  if (!sides) return undefined;
  const current = focusedSums(sides.current ?? sumLlmMatrices(matrices), matrices, focus);
  const previous = focusedSums(sides.previous, matrices, focus);
  return { measured: true, previous, changes: compareLlmPeriods(current, previous, true) };
}
