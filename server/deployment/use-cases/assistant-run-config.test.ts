import { describe, expect, it } from 'vitest';
import { runConfigFor } from './assistant-run-config';

const assistant = {
  assistant_id: 'a1',
  graph_id: 'agent',
  config: { tags: ['assistant'], recursion_limit: 10, configurable: { model: 'm1', tone: 'dry' } },
};
const ids = { run_id: 'r1', thread_id: 't1' };

describe('runConfigFor', () => {
  it("uses the assistant's config when the run gives none", () => {
    expect(runConfigFor(assistant, undefined, ids)).toEqual({
      tags: ['assistant'],
      recursion_limit: 10,
      configurable: {
        model: 'm1',
        tone: 'dry',
        run_id: 'r1',
        thread_id: 't1',
        graph_id: 'agent',
        assistant_id: 'a1',
      },
    });
  });

  it("lets the run's config win, merging configurable key by key", () => {
    const merged = runConfigFor(
      assistant,
      { recursion_limit: 3, configurable: { model: 'm2' } },
      ids,
    );
    expect(merged).toMatchObject({
      tags: ['assistant'],
      recursion_limit: 3,
      configurable: { model: 'm2', tone: 'dry' },
    });
  });

  it('keeps the ids the platform sets, whatever the run sends', () => {
    const merged = runConfigFor(assistant, { configurable: { thread_id: 'other' } }, ids);
    expect(merged.configurable).toMatchObject({ thread_id: 't1', run_id: 'r1' });
  });

  it("passes the request's x-* headers and user-agent to the nodes, never credentials", () => {
    const headers = new Headers({
      'X-Configurable-Header': 'from-client',
      'x-api-key': 'secret',
      'x-tenant-id': 'tenant',
      'user-agent': 'sdk/2',
      authorization: 'Bearer t',
    });
    const merged = runConfigFor(assistant, { configurable: { model: 'm2' } }, ids, headers);
    expect(merged.configurable).toEqual({
      model: 'm2',
      tone: 'dry',
      'x-configurable-header': 'from-client',
      'user-agent': 'sdk/2',
      run_id: 'r1',
      thread_id: 't1',
      graph_id: 'agent',
      assistant_id: 'a1',
    });
  });
});
