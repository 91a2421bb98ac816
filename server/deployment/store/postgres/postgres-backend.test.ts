import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeploymentStore } from '../deployment-store';
import { openPostgresDeploymentStore } from './postgres-deployment-store';

const TEST_DATABASE_URI = process.env.TEST_DATABASE_URI || undefined;
const KWARGS = { stream_mode: [], stream_subgraphs: false, stream_resumable: false } as const;

describe.skipIf(!TEST_DATABASE_URI)(
  'Postgres backend (skipped: TEST_DATABASE_URI unset; the deployment-postgres project reruns the API suite on it)',
  () => {
    const name = `deployment_backend_${randomBytes(6).toString('hex')}`;
    let uri = '';
    const admin = () => new pg.Client({ connectionString: TEST_DATABASE_URI });
    let stores: (DeploymentStore & { pool: pg.Pool })[] = [];
    const replica = (index: number) => {
      const store = stores[index];
      if (!store) throw new Error(`replica ${index} did not open`);
      return store;
    };

    beforeAll(async () => {
      const client = admin();
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      const url = new URL(TEST_DATABASE_URI ?? '');
      url.pathname = `/${name}`;
      uri = url.toString();
      // Four replicas starting at once migrate one after another; none fails or migrates twice.
      stores = await Promise.all([1, 2, 3, 4].map(() => openPostgresDeploymentStore(uri)));
    });

    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
      const client = admin();
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    });

    it('records each migration once when replicas start together, in schema deployment', async () => {
      const store = replica(0);
      const { rows } = await store.pool.query<{ version: number }>(
        'SELECT version FROM deployment.migrations ORDER BY version',
      );
      expect(rows.map((row) => row.version)).toEqual([1, 2, 3, 4, 5, 6]);
      const tables = await store.pool.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'deployment'
         ORDER BY table_name`,
      );
      expect(tables.rows.map((row) => row.table_name)).toEqual(
        expect.arrayContaining(['checkpoints', 'checkpoint_blobs', 'runs', 'threads']),
      );
    });

    it('creates a system assistant once when four replicas create it at the same moment', async () => {
      const now = new Date().toISOString();
      const assistant = (index: number) => ({
        assistant_id: `system-${name}`,
        graph_id: 'agent',
        name: `replica ${index}`,
        description: null,
        config: {},
        context: {},
        metadata: { created_by: 'system' },
        version: 1,
        created_at: now,
        updated_at: now,
      });
      // Before createIfAbsent, the loser of the race failed to start (assistant_versions_pkey).
      await Promise.all(
        stores.map((store, index) => store.assistants.createIfAbsent(assistant(index))),
      );
      const versions = await replica(0).assistants.versions(`system-${name}`);
      expect(versions).toHaveLength(1);
      expect((await replica(3).assistants.get(`system-${name}`))?.name).toBe(versions[0]?.name);
    });

    it('refuses a second running run on a thread (the partial unique index)', async () => {
      const [a, b] = [replica(0), replica(1)];
      const thread = await a.threads.create({});
      const run = (store: DeploymentStore) =>
        store.runs.create({
          threadId: thread!.thread_id,
          assistantId: 'agent',
          input: null,
          metadata: {},
          strategy: 'enqueue',
          kwargs: { ...KWARGS, stream_mode: ['values'] },
        });
      const first = await run(a);
      const second = await run(b);
      await a.runs.setStatus(first.run_id, 'running');
      await expect(b.runs.setStatus(second.run_id, 'running')).rejects.toMatchObject({
        code: '23505',
      });
      expect((await b.runs.active(thread!.thread_id)).map((r) => r.status)).toEqual([
        'running',
        'pending',
      ]);
    });

    it('merges thread metadata from a stale read without losing a patch made since', async () => {
      const [a, b] = [replica(0), replica(1)];
      const thread = (await a.threads.create({ a: 1 }))!;
      await b.threads.patchMetadata(thread.thread_id, { b: 2 });
      // `seen` is the thread before b's patch: the one-statement write must not apply.
      const stale = await a.threads.patchMetadata(thread.thread_id, { c: 3 }, thread);
      expect(stale?.metadata).toEqual({ a: 1, b: 2, c: 3 });
      const fresh = await a.threads.patchMetadata(thread.thread_id, { d: 4 }, stale);
      expect(Object.entries(fresh?.metadata ?? {})).toEqual([
        ['a', 1],
        ['b', 2],
        ['c', 3],
        ['d', 4],
      ]);
      expect((await b.threads.get(thread.thread_id))?.metadata).toEqual(fresh?.metadata);
    });

    it('rolls a run back with its checkpoints in one transaction, keeping the head chain', async () => {
      const store = replica(2);
      const threadId = (await store.threads.create({}))!.thread_id;
      const newRun = (metadata: Record<string, unknown>) =>
        store.runs.create({
          threadId,
          assistantId: 'agent',
          input: null,
          metadata,
          strategy: 'rollback',
          kwargs: { ...KWARGS, stream_mode: ['values'] },
        });
      const checkpoints = async () =>
        (
          await store.pool.query<{ checkpoint_id: string }>(
            `SELECT checkpoint_id FROM deployment.checkpoints WHERE thread_id = $1
             ORDER BY checkpoint_id`,
            [threadId],
          )
        ).rows.map((row) => row.checkpoint_id);
      const blobs = async () =>
        (
          await store.pool.query<{ version: string }>(
            `SELECT version FROM deployment.checkpoint_blobs WHERE thread_id = $1 ORDER BY version`,
            [threadId],
          )
        ).rows.map((row) => row.version);
      // Checkpoint n holds version n of channel `messages` (checkpoint 2 shares 1's).
      for (const [id, parent, version] of [
        ['1', null, '1'],
        ['2', '1', '1'],
        ['3', '2', '3'],
      ]) {
        await store.pool.query(
          `INSERT INTO deployment.checkpoints (thread_id, checkpoint_ns, checkpoint_id,
             parent_checkpoint_id, checkpoint) VALUES ($1, '', $2, $3, $4)`,
          [threadId, id, parent, JSON.stringify({ channel_versions: { messages: version } })],
        );
      }
      for (const version of ['1', '3']) {
        await store.pool.query(
          `INSERT INTO deployment.checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type)
           VALUES ($1, '', 'messages', $2, 'empty')`,
          [threadId, version],
        );
      }
      // A run whose deletion fails: the checkpoint deletions before it are undone with it.
      await store.pool.query(`CREATE FUNCTION deployment.refuse_delete() RETURNS trigger AS $$
        BEGIN IF OLD.metadata::jsonb ? 'refuse' THEN RAISE EXCEPTION 'refused'; END IF;
        RETURN OLD; END $$ LANGUAGE plpgsql`);
      await store.pool.query(`CREATE TRIGGER refuse BEFORE DELETE ON deployment.runs
        FOR EACH ROW EXECUTE FUNCTION deployment.refuse_delete()`);
      const refused = await newRun({ refuse: true });
      await expect(store.checkpoints.rollback(threadId, '1', refused.run_id)).rejects.toThrow(
        'refused',
      );
      expect(await checkpoints()).toEqual(['1', '2', '3']);
      expect(await blobs()).toEqual(['1', '3']);

      const run = await newRun({});
      expect(await store.checkpoints.rollback(threadId, '1', run.run_id)).toBe(2);
      expect(await checkpoints()).toEqual(['1']);
      // The value only checkpoint 3 used went with it; the one checkpoint 1 uses stayed.
      expect(await blobs()).toEqual(['1']);
      expect(await store.runs.get(threadId, run.run_id)).toBeUndefined();
      // The next run starts from the head the rollback left.
      const next = await newRun({});
      const claim = { runId: next.run_id, owner: 'test', leaseMs: 30_000 };
      expect(await store.runs.claim(claim)).toEqual({ attempt: 1, startCheckpointId: '1' });
      expect(await store.runs.claim(claim)).toBeUndefined();
    });

    it('lets one replica sweep expired threads at a time, and the next once it is done', async () => {
      const inside = await replica(0).ttls.exclusively(async () =>
        Promise.all([1, 2].map((index) => replica(index).ttls.exclusively(async () => 'swept'))),
      );
      expect(inside).toEqual([undefined, undefined]);
      expect(await replica(1).ttls.exclusively(async () => 'swept')).toBe('swept');
    });

    it('expires a thread by its last update, and a keep_latest one again only after an update', async () => {
      const store = replica(0);
      const thread = await store.threads.create({});
      if (!thread) throw new Error('thread not created');
      await store.ttls.set(thread.thread_id, { strategy: 'keep_latest', minutes: 10 });
      const expiredAt = async (minutes: number) =>
        (await store.ttls.expired(new Date(Date.now() + minutes * 60_000), 1000))
          .filter((expired) => expired.threadId === thread.thread_id)
          .map((expired) => expired.strategy);
      expect(await expiredAt(9)).toEqual([]);
      expect(await expiredAt(11)).toEqual(['keep_latest']);
      await store.ttls.markPruned(thread.thread_id, new Date(Date.now() + 11 * 60_000));
      expect(await expiredAt(12)).toEqual([]);
      await store.ttls.set(thread.thread_id, { strategy: 'delete', minutes: 10 });
      expect(await expiredAt(11)).toEqual(['delete']);
      await store.threads.delete(thread.thread_id);
      expect(await store.ttls.get(thread.thread_id)).toBeUndefined();
    });

    it('deletes the store items expired at the time it is given, and only those', async () => {
      const store = replica(0);
      await store.kv.put(['sweep'], 'soon', { n: 1 }, 1);
      await store.kv.put(['sweep'], 'later', { n: 2 }, 60);
      await store.kv.put(['sweep'], 'never', { n: 3 });
      expect(await store.kv.sweepExpired(new Date(Date.now() + 30 * 60_000))).toBe(1);
      const left = await store.kv.search(['sweep'], { limit: 10, offset: 0 });
      expect(left.map((item) => item.key).sort()).toEqual(['later', 'never']);
    });
  },
);
