import { describe, expect, it } from 'vitest';
import type { Principal } from '../store/usage-store';
import { actorOf } from './record-change';

const principal = (permissions: string[]): Principal => ({
  name: 'ci bot',
  permissions,
  workspaces: [],
});

describe('the actor of a change', () => {
  it('is the console user an admin key names', () => {
    const admin = principal(['organization:read', 'organization:manage']);
    expect(actorOf(' ada@example.com ', admin)).toBe('ada@example.com');
  });

  it('is the key’s name when a key without the admin permission names someone', () => {
    const limits = principal(['organization:read', 'usage-limits:manage']);
    expect(actorOf('mallory@example.com', limits)).toBe('api-key:ci bot');
  });

  it('is the key’s name when no one is named', () => {
    const admin = principal(['organization:manage']);
    expect(actorOf(undefined, admin)).toBe('api-key:ci bot');
    expect(actorOf('  ', admin)).toBe('api-key:ci bot');
  });
});
