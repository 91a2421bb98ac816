import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeploymentStore, KvStore } from './deployment-store';
import { requiredLabels } from './namespaces';
import { openPostgresDeploymentStore } from './postgres/postgres-deployment-store';
import { scopedKvStore } from './scoped-kv-store';
import { openSqliteDeploymentStore } from './sqlite/sqlite-deployment-store';

const TEST_DATABASE_URI = process.env.TEST_DATABASE_URI || undefined;

interface Backend {
  open(): Promise<DeploymentStore>;
  dispose(): Promise<void>;
}

function sqliteBackend(): Backend {
  let dataDir = '';
  return {
    async open() {
      dataDir = await mkdtemp(path.join(tmpdir(), 'kv-scopes-'));
      return openSqliteDeploymentStore(dataDir);
    },
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}

function postgresBackend(): Backend {
  const name = `deployment_kv_${randomBytes(6).toString('hex')}`;
  const onServer = async (sql: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URI });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  return {
    async open() {
      await onServer(`CREATE DATABASE ${name}`);
      const uri = new URL(TEST_DATABASE_URI ?? '');
      uri.pathname = `/${name}`;
      return openPostgresDeploymentStore(uri.toString());
    },
    dispose: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

const BACKENDS: [string, () => Backend][] = [
  ['SQLite', sqliteBackend],
  ...(TEST_DATABASE_URI ? [['Postgres', postgresBackend] as [string, () => Backend]] : []),
];

const page = { limit: 100, offset: 0 };

describe.each(BACKENDS)('store items on %s', (_name, backend) => {
  const opened = backend();
  let store: DeploymentStore;
  let kv: KvStore;
  beforeAll(async () => {
    store = await opened.open();
    kv = store.kv;
  });
  afterAll(async () => {
    await store.close();
    await opened.dispose();
  });

  it('keeps each scope to its own items, under the namespaces the tenant names', async () => {
    const a = scopedKvStore(kv, ['workspace:a']);
    const b = scopedKvStore(kv, ['workspace:b']);
    await a.put(['notes', 'today'], 'k', { text: 'from a' });
    await b.put(['notes', 'today'], 'k', { text: 'from b' });
    await b.put(['workspace:a', 'notes'], 'k', { text: 'b naming a' });

    expect((await a.get(['notes', 'today'], 'k'))?.value).toEqual({ text: 'from a' });
    expect((await b.get(['notes', 'today'], 'k'))?.value).toEqual({ text: 'from b' });
    const found = await a.search([], page);
    expect(found.map((item) => [item.namespace, item.value])).toEqual([
      [['notes', 'today'], { text: 'from a' }],
    ]);
    expect(await a.namespaces({ ...page })).toEqual([['notes', 'today']]);
    expect(await a.namespaces({ ...page, max_depth: 1 })).toEqual([['notes']]);
    expect(await b.namespaces({ ...page, suffix: ['today'] })).toEqual([['notes', 'today']]);

    await b.delete(['notes', 'today'], 'k');
    expect(await b.get(['notes', 'today'], 'k')).toBeNull();
    expect(await a.get(['notes', 'today'], 'k')).not.toBeNull();
  });

  it('keeps to namespaces holding the required labels inside its queries', async () => {
    await kv.put(['users', 'alice', 'notes'], 'n', { text: 'hers' });
    await kv.put(['users', 'bob', 'notes'], 'n', { text: 'his' });
    await kv.put(['users', 'alicea', 'notes'], 'n', { text: 'a longer name' });
    const labels = requiredLabels({ namespace: { $contains: 'alice' } });

    const found = await kv.search(['users'], { ...page, labels });
    expect(found.map((item) => item.namespace)).toEqual([['users', 'alice', 'notes']]);
    expect(await kv.namespaces({ ...page, prefix: ['users'], labels })).toEqual([
      ['users', 'alice', 'notes'],
    ]);
    // Only one item of the store is hers, so a page of one is hers, not the latest item.
    const first = await kv.search([], { limit: 1, offset: 0, labels });
    expect(first.map((item) => item.namespace)).toEqual([['users', 'alice', 'notes']]);
    const none = requiredLabels({ namespace: { $contains: ['alice', 'bob'] } });
    expect(await kv.search(['users'], { ...page, labels: none })).toEqual([]);
  });
});

describe('requiredLabels', () => {
  it.each([
    ['no filters', undefined, []],
    ['one label', { namespace: { $contains: 'alice' } }, ['alice']],
    ['labels in $and', { $and: [{ namespace: { $contains: ['a', 'b'] } }] }, ['a', 'b']],
    ['alternatives are not required', { $or: [{ namespace: { $contains: 'a' } }] }, []],
    ['other keys', { owner: 'alice' }, []],
  ])('%s', (_name, filters, labels) => {
    expect(requiredLabels(filters)).toEqual(labels);
  });
});
