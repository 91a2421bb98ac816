import type { RunFate } from '@/features/playground/model/run-fate';

/** A coloured badge; its words, not its colour, carry the meaning. */
export function RunFateBadge({ fate }: { fate: RunFate }) {
  return <span className={`pg-badge pg-badge-${fate.tone}`}>{fate.badge}</span>;
}
