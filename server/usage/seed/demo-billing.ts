import { DEFAULT_PLAN, type Plan } from '@contracts/usage/pricing';

/**
 * The demo's billing story: a team on LangSmith's Plus prices with five seats, and about 1.2% of
 * its base traces upgraded to extended retention by feedback, 0 to 75 hours after ingestion (so
 * some upgrades land in the month after their trace's). Which traces, and when, is a function of
 * the run id's text alone, so every backend seeds the same upgrades from the same traces.
 */
export const DEMO_PLAN: Plan = { ...DEFAULT_PLAN, seats: 5 };

/** Traces whose run id ends in one of these are upgraded. */
export const UPGRADED_ID_SUFFIXES = ['00', '01', '02'] as const;

/** The upgrade comes this many hours after ingestion per value (0-15) of the id's 34th digit. */
export const UPGRADE_HOURS_PER_DIGIT = 5;

/** SQL text of the suffix list: `'00', '01', '02'`. */
export const upgradedSuffixList = () => UPGRADED_ID_SUFFIXES.map((s) => `'${s}'`).join(', ');
