import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { failureStatus } from './test-deployment';
import { useTestDeployment } from './use-test-deployment';

const deployment = useTestDeployment({ stepMs: 0 });

/** A namespace of its own for each test: the store is shared by the whole file. */
const freshNamespace = () => ['memories', randomUUID()];

describe('items', () => {
  it('puts, gets, updates and deletes an item', async () => {
    const { store } = deployment.client;
    const namespace = freshNamespace();
    expect(await store.getItem(namespace, 'k')).toBeNull();
    await store.putItem(namespace, 'k', { foo: 'bar' });
    const first = await store.getItem(namespace, 'k');
    expect(first).toMatchObject({ namespace, key: 'k', value: { foo: 'bar' } });

    await store.putItem(namespace, 'k', { foo: 'baz' });
    const second = await store.getItem(namespace, 'k');
    expect(second?.value).toEqual({ foo: 'baz' });
    expect(second?.createdAt).toBe(first?.createdAt);
    expect(new Date(second?.updatedAt ?? 0).getTime()).toBeGreaterThan(
      new Date(first?.updatedAt ?? 0).getTime(),
    );

    await store.deleteItem(namespace, 'k');
    expect(await store.getItem(namespace, 'k')).toBeNull();
  });

  it('refuses bad namespaces with the official statuses and wording', async () => {
    const url = `${deployment.url}/store/items`;
    const put = (body: unknown) =>
      fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const empty = await put({ namespace: [], key: 'k', value: {} });
    expect([empty.status, await empty.json()]).toEqual([400, { detail: 'Namespace is required' }]);
    const dotted = await put({ namespace: ['a', ''], key: 'k', value: {} });
    expect(dotted.status).toBe(422);
    expect(await dotted.json()).toEqual({
      detail: 'Namespace labels cannot be empty or contain periods. Received: a.',
    });
    expect((await put({ namespace: ['a'], key: 'k', value: 'text' })).status).toBe(422);
  });
});

describe('search', () => {
  it('finds items under a namespace prefix, with filter, limit and offset', async () => {
    const { store } = deployment.client;
    const root = freshNamespace();
    await store.putItem([...root, 'a'], 'one', { n: 1, kind: 'x' });
    await store.putItem([...root, 'a'], 'two', { n: 2, kind: 'y' });
    await store.putItem([...root, 'b'], 'three', { n: 3, kind: 'x' });
    await store.putItem([`${root[1]}-sibling`], 'outside', { n: 4 });

    const all = await store.searchItems(root);
    // Most recently updated first; a namespace merely starting with the same text is not under it.
    expect(all.items.map((item) => item.key)).toEqual(['three', 'two', 'one']);
    expect(all.items[0]).toMatchObject({ namespace: [...root, 'b'], value: { n: 3, kind: 'x' } });
    expect(all.items[0]?.createdAt).toEqual(expect.any(String));

    const underA = await store.searchItems([...root, 'a']);
    expect(underA.items.map((item) => item.key)).toEqual(['two', 'one']);
    const kindX = await store.searchItems(root, { filter: { kind: 'x' } });
    expect(kindX.items.map((item) => item.key)).toEqual(['three', 'one']);
    const atLeastTwo = await store.searchItems(root, { filter: { n: { $gte: 2 } } });
    expect(atLeastTwo.items.map((item) => item.key)).toEqual(['three', 'two']);
    const page = await store.searchItems(root, { limit: 1, offset: 1 });
    expect(page.items.map((item) => item.key)).toEqual(['two']);
    // No embedding index: a query is accepted and does not narrow the result.
    const queried = await store.searchItems(root, { query: 'anything' });
    expect(queried.items).toHaveLength(3);
  });
});

describe('namespaces', () => {
  it('lists namespaces by prefix, suffix and max depth, sorted, paged', async () => {
    const { store } = deployment.client;
    const root = freshNamespace();
    await store.putItem([...root, 'a', 'notes'], 'k', { v: 1 });
    await store.putItem([...root, 'b', 'notes'], 'k', { v: 1 });
    await store.putItem([...root, 'b', 'todo'], 'k', { v: 1 });

    const under = await store.listNamespaces({ prefix: root });
    expect(under.namespaces).toEqual([
      [...root, 'a', 'notes'],
      [...root, 'b', 'notes'],
      [...root, 'b', 'todo'],
    ]);
    const notes = await store.listNamespaces({ prefix: root, suffix: ['notes'] });
    expect(notes.namespaces).toEqual([
      [...root, 'a', 'notes'],
      [...root, 'b', 'notes'],
    ]);
    const shallow = await store.listNamespaces({ prefix: root, maxDepth: 3 });
    expect(shallow.namespaces).toEqual([
      [...root, 'a'],
      [...root, 'b'],
    ]);
    const page = await store.listNamespaces({ prefix: root, limit: 1, offset: 2 });
    expect(page.namespaces).toEqual([[...root, 'b', 'todo']]);
  });

  it('answers 400 for an empty prefix label list', async () => {
    const response = await fetch(`${deployment.url}/store/namespaces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prefix: [] }),
    });
    expect(response.status).toBe(400);
    expect(await failureStatus(deployment.client.store.listNamespaces({ limit: 0 }))).toBe(422);
  });
});
