import type { Stride } from '@contracts/usage/usage-schema';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { strideForRange, strideMs } from '@contracts/usage/stride';
import type { TimeRange } from './time-range';
import { DAY_MS } from '@contracts/usage/time';

/** A request the screen needs: its range, and the stride the server will answer it with. */
export interface FetchWindow extends TimeRange {
  serverStride: Stride;
}

/** True when buckets of `fine` tile buckets of `coarse` exactly (both aligned at one origin). */
export function divides(fine: Stride, coarse: Stride): boolean {
  return strideMs(coarse) % strideMs(fine) === 0;
}

/**
 * Longest window that the server answers with this stride (table 2.2: daily up to 31 days,
 * 7-day buckets up to 93 days, 30-day up to 366), rounded down to whole buckets so every window
 * starts on a bucket boundary of the whole range.
 */
const WINDOW_DAYS: Record<number, number> = { 1: 31, 7: 91, 30: 360 };
/** The server answers hourly only below a day: hourly views are asked for in half days. */
const HOURLY_WINDOW_MS = 12 * 3_600_000;

/**
 * Splits `range` into requests whose server buckets tile the `target` buckets, so the screen can
 * show a finer level than the server's stride for the whole range. One window when the server's
 * own stride already divides the target (the rest is re-bucketing). A short tail whose stride
 * would not divide the target (e.g. 40 days -> 7-day buckets under a 30-day view) is split again
 * into daily windows.
 */
export function planFetchWindows(range: TimeRange, target: Stride): FetchWindow[] {
  const whole = strideForRange(range.startMs, range.endMs);
  if (divides(whole, target)) return [{ ...range, serverStride: whole }];

  const windowMs = target.days === 0 ? HOURLY_WINDOW_MS : (WINDOW_DAYS[target.days] ?? 31) * DAY_MS;
  const origin = createBucketGrid(range.startMs, range.endMs, target).originMs;
  const windows: FetchWindow[] = [];
  for (let at = origin; at < range.endMs; at += windowMs) {
    const startMs = Math.max(at, range.startMs);
    const endMs = Math.min(at + windowMs, range.endMs);
    const serverStride = strideForRange(startMs, endMs);
    if (divides(serverStride, target)) {
      windows.push({ startMs, endMs, serverStride });
    } else {
      windows.push(...planFetchWindows({ startMs, endMs }, { days: 1, hours: 0 }));
    }
  }
  return windows;
}

/** True when every window's server buckets are exactly the screen's (no re-bucketing). */
export function showsServerBuckets(windows: FetchWindow[], target: Stride): boolean {
  return windows.every((window) => strideMs(window.serverStride) === strideMs(target));
}
