import { describe, expect, it } from 'vitest';
import { createSignInRateLimit } from './sign-in-rate-limit';

describe('createSignInRateLimit', () => {
  it('allows the first attempts of a minute, then says how long to wait', () => {
    const limit = createSignInRateLimit(3);
    const start = 1_000_000;
    expect([0, 1, 2].map((i) => limit.attempt('10.0.0.1', start + i).allowed)).toEqual([
      true,
      true,
      true,
    ]);
    expect(limit.attempt('10.0.0.1', start + 15_000)).toEqual({
      allowed: false,
      retryAfterSeconds: 45,
    });
    expect(limit.attempt('10.0.0.1', start + 59_999)).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
    });
    expect(limit.attempt('10.0.0.1', start + 60_000)).toEqual({ allowed: true });
  });

  it('counts each client address apart', () => {
    const limit = createSignInRateLimit(1);
    expect(limit.attempt('10.0.0.1', 0).allowed).toBe(true);
    expect(limit.attempt('10.0.0.1', 1).allowed).toBe(false);
    expect(limit.attempt('10.0.0.2', 2).allowed).toBe(true);
  });
});
