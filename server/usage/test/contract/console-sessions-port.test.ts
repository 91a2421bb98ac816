import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredConsoleSession } from '@server/usage/store/console-session-store';
import { openStore } from '@server/usage/store/open-usage-store';
import type { UsageStore } from '@server/usage/store/usage-store';
import { LIMIT_BACKENDS } from '../limit-backends';
import { freshStore, type FreshStore } from './fresh-stores';

/** The console sign-ins part of the port, run the same on every backend. */
describe.each(LIMIT_BACKENDS)('console sessions through the port ($name)', ({ kind, skip }) => {
  let store: FreshStore;
  let backend: UsageStore;

  beforeEach(async ({ skip: skipTest }) => {
    if (skip) return skipTest();
    store = await freshStore(kind, 'sessions_port');
    backend = await openStore(store.choice);
  });
  afterEach(async () => {
    if (skip) return;
    await backend.close();
    await store.drop();
  });

  const session = (overrides: Partial<StoredConsoleSession> = {}): StoredConsoleSession => ({
    idHash: randomBytes(32).toString('hex'),
    mode: 'apikey',
    name: 'API key ending admin',
    role: 'admin',
    sealedKey: 'sealed',
    createdAtMs: 1_800_000_000_000,
    lastSeenAtMs: 1_800_000_000_000,
    ...overrides,
  });

  it('finds a created session by its hash, and nothing for another', async () => {
    const created = session();
    await backend.sessions.create(created);
    expect(await backend.sessions.find(created.idHash)).toEqual(created);
    expect(await backend.sessions.find(session().idHash)).toBeUndefined();
  });

  it('moves the idle clock forward only, and forgets a revoked session', async () => {
    const created = session({
      mode: 'oidc',
      name: 'ada@example.com',
      role: 'viewer',
      sealedKey: null,
    });
    await backend.sessions.create(created);
    await backend.sessions.touch(created.idHash, created.lastSeenAtMs + 5_000);
    await backend.sessions.touch(created.idHash, created.lastSeenAtMs + 1_000);
    expect(await backend.sessions.find(created.idHash)).toMatchObject({
      mode: 'oidc',
      name: 'ada@example.com',
      role: 'viewer',
      sealedKey: null,
      lastSeenAtMs: created.lastSeenAtMs + 5_000,
    });
    await backend.sessions.revoke(created.idHash);
    expect(await backend.sessions.find(created.idHash)).toBeUndefined();
  });

  it('purges sessions idle too long or started too long ago, and keeps the others', async () => {
    const now = 1_800_000_000_000;
    const idle = session({ createdAtMs: now - 10, lastSeenAtMs: now - 10 });
    const old = session({ createdAtMs: now - 100, lastSeenAtMs: now });
    const fresh = session({ createdAtMs: now - 5, lastSeenAtMs: now });
    for (const each of [idle, old, fresh]) await backend.sessions.create(each);
    expect(await backend.sessions.purge(now - 8, now - 50)).toBe(2);
    expect(await backend.sessions.find(fresh.idHash)).toEqual(fresh);
    expect(await backend.sessions.find(idle.idHash)).toBeUndefined();
  });
});
