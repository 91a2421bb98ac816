/** Days per period row (`usage_periods`, `llm_periods`): period `p` holds UTC day numbers `[128 p, 128 p + 128)`. */
export const PERIOD_DAYS = 128;

/** The period of a `Date` expression, as the period tables key it. */
export const periodOf = (day: string) => `toUInt16(intDiv(toUInt16(${day}), ${PERIOD_DAYS}))`;
