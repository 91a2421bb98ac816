/** Lengths of time in milliseconds. A day is a UTC day: usage has no time zones or leap seconds. */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
