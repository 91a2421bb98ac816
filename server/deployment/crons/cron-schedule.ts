import { Cron } from 'croner';

/**
 * A cron schedule read as the platform reads it: in UTC, five fields (minute hour day month
 * weekday), or six with seconds first (which lets a demo or a test fire every few seconds).
 * `undefined` plus the reason when the expression is not a schedule.
 */
export function parseSchedule(
  schedule: string,
): { ok: true; cron: Cron } | { ok: false; reason: string } {
  try {
    return { ok: true, cron: new Cron(schedule, { timezone: 'UTC', paused: true }) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The first firing strictly after `after`, or `null` when there is none before `endTime` (or
 * none at all, e.g. "0 0 30 2 *").
 */
export function nextRunDate(schedule: string, after: Date, endTime: string | null): string | null {
  const parsed = parseSchedule(schedule);
  if (!parsed.ok) return null;
  const next = parsed.cron.nextRun(after);
  if (!next) return null;
  if (endTime !== null && next.getTime() > Date.parse(endTime)) return null;
  return next.toISOString();
}
