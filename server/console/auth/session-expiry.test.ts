import { describe, expect, it } from 'vitest';
import { cookieMaxAgeSeconds, isSessionLive, needsTouch } from './session-expiry';

const life = { idleMs: 3_600_000, maxMs: 43_200_000 };
const start = 1_800_000_000_000;

describe('isSessionLive', () => {
  it.each([
    ['just signed in', start, start, true],
    ['used a minute ago', start, start + 60_000, true],
    ['idle one hour less a millisecond', start, start + 3_599_999, true],
    ['idle exactly one hour', start, start + 3_600_000, false],
    ['busy, 11 h 59 min after sign-in', start + 43_100_000, start + 43_199_999, true],
    ['busy, 12 h after sign-in', start + 43_199_000, start + 43_200_000, false],
  ])('%s', (_name, lastSeenAtMs, now, live) => {
    expect(isSessionLive({ createdAtMs: start, lastSeenAtMs }, now, life)).toBe(live);
  });
});

describe('needsTouch', () => {
  it.each([
    [life, 59_999, false],
    [life, 60_000, true],
    [{ idleMs: 100_000, maxMs: 1_000_000 }, 9_999, false],
    [{ idleMs: 100_000, maxMs: 1_000_000 }, 10_000, true],
  ])('with idle %o, %i ms after the last recorded use: %s', (lifetime, since, touch) => {
    const session = { createdAtMs: start, lastSeenAtMs: start };
    expect(needsTouch(session, start + since, lifetime)).toBe(touch);
  });
});

describe('cookieMaxAgeSeconds', () => {
  it.each([
    [start, 43_200],
    [start + 43_199_000, 1],
    [start + 50_000_000, 0],
  ])('at %i', (now, seconds) => {
    expect(cookieMaxAgeSeconds(start, now, life)).toBe(seconds);
  });
});
