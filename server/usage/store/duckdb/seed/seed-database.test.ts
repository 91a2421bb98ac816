import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDuckDbStore, type DuckDbStore } from '../connection';
import { seedIfEmpty } from './seed-database';
import { testProfile } from '@server/usage/seed/seed-profiles';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function seeded(toIso: string): Promise<DuckDbStore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'usage-seed-'));
  dirs.push(dir);
  const store = await openDuckDbStore(path.join(dir, 'usage.duckdb'));
  await seedIfEmpty(store, { ...testProfile(), toMs: Date.parse(toIso) });
  return store;
}

/** A fingerprint of every trace (id, time, dimensions) before `untilIso`, and their count. */
async function fingerprint(store: DuckDbStore, untilIso: string) {
  return store.withConnection(async (connection) => {
    const reader = await connection.runAndReadAll(
      `SELECT count(*)::DOUBLE, md5(string_agg(concat_ws('|', run_id, workspace_id, project_id,
         user_id, api_key_id, start_time), ',' ORDER BY run_id))
       FROM traces WHERE start_time < $1::TIMESTAMP`,
      [untilIso],
    );
    return reader.getRowsJS()[0];
  });
}

describe('seedIfEmpty', () => {
  it('is deterministic: a later seeding moment only adds traces after the earlier one', async () => {
    const early = await seeded('2026-02-10T13:30:00Z');
    const late = await seeded('2026-03-15T00:00:00Z');
    try {
      const [earlyPrint, latePrint] = await Promise.all([
        fingerprint(early, '2026-02-10T13:30:00Z'),
        fingerprint(late, '2026-02-10T13:30:00Z'),
      ]);
      expect(Number(earlyPrint?.[0])).toBeGreaterThan(5_000);
      expect(latePrint).toEqual(earlyPrint);
      expect(await fingerprint(early, '2030-01-01T00:00:00Z')).toEqual(earlyPrint);
    } finally {
      await Promise.all([early.close(), late.close()]);
    }
  });

  it('leaves a store that already holds data alone', async () => {
    const store = await seeded('2026-01-20T00:00:00Z');
    try {
      const again = await seedIfEmpty(store, testProfile());
      expect(again.seeded).toBe(false);
      expect(await fingerprint(store, '2030-01-01T00:00:00Z')).toEqual(
        await fingerprint(store, '2026-01-20T00:00:00Z'),
      );
    } finally {
      await store.close();
    }
  });
});
