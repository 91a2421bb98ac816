/** Half-open range of epoch day numbers `[from, to)`. */
export interface DayRange {
  from: number;
  to: number;
}

/** Where the whole days of a range are read: whole Monday weeks, and the days left over. */
export interface WeekSplit {
  /** Day ranges made of whole Monday-to-Sunday weeks, each week inside one bucket. */
  weeks: DayRange[];
  /** The other days. */
  days: DayRange[];
}

/** Epoch day 4 (1970-01-05) was a Monday. */
const MONDAY = 4;

const mondayOnOrAfter = (day: number) => day + ((((MONDAY - day) % 7) + 7) % 7);

/** Appends `range`, merged into the last one when they touch. */
function push(ranges: DayRange[], range: DayRange): void {
  if (range.from >= range.to) return;
  const last = ranges.at(-1);
  if (last && last.to === range.from) last.to = range.to;
  else ranges.push({ ...range });
}

/**
 * Splits the whole days `[fromDay, toDay)` of a grid of `strideDays`-day buckets starting at
 * `originDay` into the Monday weeks that lie wholly inside one bucket (a weekly rollup row then
 * counts for its bucket exactly) and the remaining days (read from the daily rollup). A 30-day
 * bucket holds 3 or 4 such weeks, a 365-day one 51 or 52. Daily buckets read days only, and
 * 7-day buckets unless they start on a Monday.
 */
export function splitIntoWeeks(
  fromDay: number,
  toDay: number,
  originDay: number,
  strideDays: number,
): WeekSplit {
  const split: WeekSplit = { weeks: [], days: [] };
  if (strideDays < 7) {
    push(split.days, { from: fromDay, to: toDay });
    return split;
  }
  for (let start = fromDay; start < toDay;) {
    const bucket = Math.floor((start - originDay) / strideDays);
    const end = Math.min(toDay, originDay + (bucket + 1) * strideDays);
    const firstWeek = mondayOnOrAfter(start);
    const weeks = Math.floor((end - firstWeek) / 7);
    if (weeks > 0) {
      const weeksEnd = firstWeek + weeks * 7;
      push(split.days, { from: start, to: firstWeek });
      push(split.weeks, { from: firstWeek, to: weeksEnd });
      push(split.days, { from: weeksEnd, to: end });
    } else {
      push(split.days, { from: start, to: end });
    }
    start = end;
  }
  return split;
}
