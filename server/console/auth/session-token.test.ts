import { describe, expect, it } from 'vitest';
import { hashSessionId, newSessionId, openKey, sealKey } from './session-token';

describe('session tokens', () => {
  it('gives a new random id each time, stored only as a hash that does not contain it', () => {
    const [first, second] = [newSessionId(), newSessionId()];
    expect(first).not.toBe(second);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hashSessionId(first)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSessionId(first)).not.toContain(first);
  });

  it('seals a key that only its own session id opens', () => {
    const id = newSessionId();
    const sealed = sealKey(id, 'lsv2_demo_admin');
    expect(sealed).not.toContain('lsv2');
    expect(openKey(id, sealed)).toBe('lsv2_demo_admin');
    expect(openKey(newSessionId(), sealed)).toBeUndefined();
    expect(openKey(id, 'not.a.seal')).toBeUndefined();
  });
});
