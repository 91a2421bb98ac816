import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { createAssistantRegistry, uuid5 } from '@server/deployment/use-cases/assistant-registry';
import { createSqliteAssistantStore } from '@server/deployment/store/sqlite/assistant-store';

it('derives the assistant id LangGraph Platform gives the graph "agent"', async () => {
  const store = createSqliteAssistantStore(new Database(':memory:'));
  const registry = await createAssistantRegistry(store, ['agent']);
  const id = 'fe096781-5601-53d2-b2f6-0d3403f7e9ca';
  expect((await registry.resolve('agent'))?.assistant_id).toBe(id);
  expect((await registry.resolve(id))?.graph_id).toBe('agent');
  expect(await registry.resolve('other')).toBeUndefined();
});

it('computes RFC 4122 version-5 UUIDs (python: uuid5(NAMESPACE_DNS, "python.org"))', () => {
  expect(uuid5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
    '886313e1-3b8a-5372-9b90-0c9aee199e5d',
  );
});
