import type { ModelPrice } from '@contracts/usage/model-price-map';
import { NANO_USD_PER_USD } from '@contracts/usage/llm-usage-schema';
import type { LlmUsage } from '@server/usage/ingest/llm-usage';

/** How a run's cost was decided at ingestion. */
export type CostSource = 'declared' | 'price_map' | 'unpriced';

export interface PricedRun {
  /** Nano-dollars, or null when the run is unpriced (its cost is unknown). */
  costNanos: number | null;
  source: CostSource;
}

const patterns = new Map<string, RegExp | null>();

/** A pattern as a regular expression, compiled once; an invalid one matches nothing. */
function compiled(pattern: string): RegExp | null {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern);
    } catch {
      regex = null;
    }
    if (patterns.size > 10_000) patterns.clear();
    patterns.set(pattern, regex);
  }
  return regex;
}

/** Whether an entry prices a run of `usage`'s model ingested at `atMs`. */
function applies(entry: ModelPrice, usage: LlmUsage, atMs: number): boolean {
  if (usage.modelName === null) return false;
  if (entry.provider !== null && entry.provider !== usage.modelProvider) return false;
  if (entry.start_time !== null && Date.parse(entry.start_time) > atMs) return false;
  return compiled(entry.match_pattern)?.test(usage.modelName) ?? false;
}

/**
 * The entry that prices a run: among those that apply, the workspace's own before the defaults,
 * then the latest `start_time` (a price change takes over from the day it starts), then the
 * first listed.
 */
export function selectModelPrice(
  entries: readonly ModelPrice[],
  usage: LlmUsage,
  atMs: number,
): ModelPrice | undefined {
  let best: ModelPrice | undefined;
  const rank = (entry: ModelPrice) =>
    [
      entry.tenant_id === null ? 0 : 1,
      entry.start_time ? Date.parse(entry.start_time) : 0,
    ] as const;
  for (const entry of entries) {
    if (!applies(entry, usage, atMs)) continue;
    if (!best) {
      best = entry;
      continue;
    }
    const [own, start] = rank(entry);
    const [bestOwn, bestStart] = rank(best);
    if (own > bestOwn || (own === bestOwn && start > bestStart)) best = entry;
  }
  return best;
}

/**
 * A run's cost at ingestion: the cost it declares, else its tokens at its entry's prices (cache
 * reads and writes and reasoning at their own prices when the entry has them, else as plain
 * input or output), else unpriced. Rounded to the nano-dollar once per run, so sums are exact.
 */
export function priceLlmRun(
  entries: readonly ModelPrice[],
  usage: LlmUsage,
  atMs: number,
): PricedRun {
  if (usage.declaredCost !== null) {
    return { costNanos: Math.round(usage.declaredCost * NANO_USD_PER_USD), source: 'declared' };
  }
  const entry = selectModelPrice(entries, usage, atMs);
  if (!entry) return { costNanos: null, source: 'unpriced' };
  const prompt = entry.prompt_cost_details;
  const completion = entry.completion_cost_details;
  const cached = usage.cacheReadTokens + usage.cacheCreationTokens;
  const plainInput = Math.max(0, usage.inputTokens - cached);
  const reasoning = Math.min(usage.reasoningTokens, usage.outputTokens);
  const dollars =
    plainInput * entry.prompt_cost +
    usage.cacheReadTokens * (prompt.cache_read ?? entry.prompt_cost) +
    usage.cacheCreationTokens * (prompt.cache_creation ?? entry.prompt_cost) +
    (usage.outputTokens - reasoning) * entry.completion_cost +
    reasoning * (completion.reasoning ?? entry.completion_cost);
  return { costNanos: Math.round(dollars * NANO_USD_PER_USD), source: 'price_map' };
}
