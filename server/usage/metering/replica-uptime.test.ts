import { describe, expect, it } from 'vitest';
import { applyHeartbeat, splitAtSteps, type Heartbeat, type ReplicaState } from './replica-uptime';

const T0 = Date.parse('2026-11-25T10:00:00Z');
const s = (seconds: number) => T0 + seconds * 1000;
const state = (startedAt: number, lastSeen: number, lastSeq: number): ReplicaState => ({
  startedAtMs: s(startedAt),
  lastSeenMs: s(lastSeen),
  lastSeq,
});
const beat = (startedAt: number, seq: number, sentAt: number): Heartbeat => ({
  startedAtMs: s(startedAt),
  seq,
  sentAtMs: s(sentAt),
});

describe('applyHeartbeat', () => {
  it.each<[string, ReplicaState | undefined, Heartbeat, number, number | null, boolean]>([
    // label, state before, heartbeat, service clock (s), credited seconds, applied
    ['first report credits since the process start', undefined, beat(0, 1, 10), 10, 10, true],
    ['next report credits since the last one', state(0, 10, 1), beat(0, 2, 25), 25, 15, true],
    ['a resent report credits nothing', state(0, 25, 2), beat(0, 2, 25), 30, null, false],
    ['an older report credits nothing', state(0, 25, 2), beat(0, 1, 10), 30, null, false],
    [
      'a late report still credits up to its heartbeat',
      state(0, 10, 1),
      beat(0, 2, 70),
      400,
      60,
      true,
    ],
    [
      'a heartbeat from the future counts to the clock',
      state(0, 10, 1),
      beat(0, 2, 90),
      40,
      30,
      true,
    ],
    ['a start after the heartbeat credits nothing', undefined, beat(50, 1, 40), 60, null, true],
    // Same replica id reused by a restarted process: the downtime 25..100 is not credited.
    [
      'a restart under the same id skips the downtime',
      state(0, 25, 2),
      beat(100, 3, 110),
      110,
      10,
      true,
    ],
  ])('%s', (_label, before, heartbeat, clock, seconds, applied) => {
    const outcome = applyHeartbeat(before, heartbeat, s(clock));
    expect(outcome.applied).toBe(applied);
    const credited = outcome.credit ? (outcome.credit.toMs - outcome.credit.fromMs) / 1000 : null;
    expect(credited).toBe(seconds);
  });

  it('credits over a sequence add up to the time between start and the last heartbeat', () => {
    // Heartbeats every 10 s, one resent and one lost on the way (its successor covers it).
    let replica: ReplicaState | undefined;
    let total = 0;
    for (const [seq, sentAt] of [
      [1, 10],
      [2, 20],
      [2, 20],
      [4, 40],
      [5, 50],
    ] as const) {
      const outcome = applyHeartbeat(replica, beat(0, seq, sentAt), s(sentAt));
      replica = outcome.state;
      if (outcome.credit) total += outcome.credit.toMs - outcome.credit.fromMs;
    }
    // The replica then crashes: no more heartbeats, nothing more is credited.
    expect(total / 1000).toBe(50);
  });

  it('two replicas of one deployment each count their own uptime (summed across replicas)', () => {
    const a = applyHeartbeat(undefined, beat(0, 1, 30), s(30));
    const b = applyHeartbeat(undefined, beat(20, 1, 30), s(30));
    const seconds = [a, b].map((o) => (o.credit ? (o.credit.toMs - o.credit.fromMs) / 1000 : 0));
    expect(seconds).toEqual([30, 10]);
  });
});

describe('splitAtSteps', () => {
  const MINUTE = 60_000;
  it.each<[string, number, number, [number, number][]]>([
    ['inside one minute', 5, 50, [[0, 45]]],
    [
      'across a boundary',
      50,
      70,
      [
        [0, 10],
        [60, 10],
      ],
    ],
    [
      'over several minutes',
      30,
      200,
      [
        [0, 30],
        [60, 60],
        [120, 60],
        [180, 20],
      ],
    ],
    ['an empty span', 30, 30, []],
  ])('%s', (_label, from, to, expected) => {
    const parts = splitAtSteps({ fromMs: s(from), toMs: s(to) }, MINUTE);
    expect(parts.map((part) => [(part.startMs - T0) / 1000, part.ms / 1000])).toEqual(expected);
  });
});
