import { DAY_MS } from '@contracts/usage/time';

/**
 * Dataset shapes. Every profile is deterministic: the traces of a day depend only on the
 * profile's seed and that day, never on when the seeder runs. A profile whose `to` is "now"
 * (the demo) therefore yields the same traces for every range that ends before the earlier of
 * two seeding moments.
 */
export interface SeedProfile {
  name: string;
  seed: number;
  /** First day (UTC midnight, epoch ms) and exclusive end of the traces. */
  fromMs: number;
  toMs: number;
  workspaces: number;
  projects: number;
  users: number;
  apiKeys: number;
  /** Traces on an average weekday at the start; growth, weekends and spikes shape the rest. */
  baseTracesPerDay: number;
  /** Curated names (CSV-hostile ones included) instead of generated ones. */
  demoNames: boolean;
  /** Workspace names in place of the demo's, for a test that needs particular ones. */
  workspaceNames?: readonly string[];
}

const DEMO_START = Date.UTC(2026, 0, 5);

export function demoProfile(nowMs: number): SeedProfile {
  return {
    name: 'demo',
    seed: 20260105,
    fromMs: DEMO_START,
    toMs: nowMs,
    workspaces: 5,
    projects: 40,
    users: 60,
    apiKeys: 25,
    baseTracesPerDay: 6_800,
    demoNames: true,
  };
}

/** Small and fixed: what the server tests run against (about 24k traces). */
export function testProfile(): SeedProfile {
  return { ...demoProfile(Date.UTC(2026, 2, 15)), name: 'test', baseTracesPerDay: 350 };
}

/** Benchmark scales over one year from 2026-01-05 (S 1M, M 10M, L 100M traces). */
export function benchProfile(scale: 'S' | 'M' | 'L'): SeedProfile {
  const traces = { S: 1_000_000, M: 10_000_000, L: 100_000_000 }[scale];
  return {
    name: scale,
    seed: 42,
    fromMs: DEMO_START,
    toMs: DEMO_START + 365 * DAY_MS,
    workspaces: 20,
    projects: 500,
    users: 5_000,
    apiKeys: 2_000,
    // A year of this profile's shape averages ~1.0 x base on weekdays and ~0.93 x base overall.
    baseTracesPerDay: Math.round(traces / 365 / 0.93),
    demoNames: false,
  };
}

/** Deterministic 32-bit hash of integers (a few xorshift-multiply rounds). */
function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    h = Math.imul(h ^ value, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/**
 * Traces per UTC day: linear growth (0.6x to 1.4x over a year), quieter weekends (0.45x),
 * and about one spike day a month (2.5x).
 */
export function tracesOnDay(profile: SeedProfile, dayIndex: number): number {
  const dayMs = profile.fromMs + dayIndex * DAY_MS;
  const weekday = new Date(dayMs).getUTCDay();
  const weekly = weekday === 0 || weekday === 6 ? 0.45 : 1.1;
  const growth = 0.6 + (0.8 * dayIndex) / 365;
  const spike = mix(profile.seed, dayIndex) % 29 === 0 ? 2.5 : 1;
  const jitter = 0.9 + (mix(dayIndex, profile.seed) % 1000) / 5000;
  return Math.round(profile.baseTracesPerDay * weekly * growth * spike * jitter);
}

/** Day indexes covered by the profile (the last may be cut short by `toMs`). */
export function dayCount(profile: SeedProfile): number {
  return Math.max(0, Math.ceil((profile.toMs - profile.fromMs) / DAY_MS));
}
