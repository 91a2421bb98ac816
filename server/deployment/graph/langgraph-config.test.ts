import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { GraphLoadError, loadLangGraphConfig } from './langgraph-config';

const fixtures = path.join(import.meta.dirname, '../test/fixtures/graphs');

describe('loadLangGraphConfig', () => {
  it('loads and compiles each graph with our checkpointer, applies env and assistant defaults', async () => {
    const checkpointer = new MemorySaver();
    const loaded = await loadLangGraphConfig(path.join(fixtures, 'good.json'), { checkpointer });

    expect(process.env.PEER_FIXTURE_ENV).toBe('set');
    expect(loaded.graphs.map((graph) => [graph.graphId, graph.foreign])).toEqual([['echo', true]]);
    expect(loaded.assistantDefaults).toEqual({
      echo: { config: { configurable: { a: 1 } }, context: undefined },
    });
    const config = { configurable: { thread_id: 't1' } };
    const echo = loaded.graphs[0]?.runtime;
    // A loaded graph is typed as the demo graph (see langgraph-config.ts), hence the cast.
    await echo?.invoke({ text: 'hi' } as never, config);
    expect((await checkpointer.getTuple(config))?.checkpoint.channel_values).toMatchObject({
      echoed: 'hi!',
    });
  });

  it('stops with a message naming the file and the export that failed', async () => {
    const load = loadLangGraphConfig(path.join(fixtures, 'langgraph.json'), {
      checkpointer: new MemorySaver(),
    });
    await expect(load).rejects.toThrow(GraphLoadError);
    await expect(load).rejects.toThrow(/echo\.mts \(export "nope"\): it has no export "nope"/);
  });

  it('reads webhooks: its URL rules, and headers filled from env_prefix variables only', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'langgraph-webhooks-'));
    const write = async (webhooks: object) => {
      const file = path.join(dir, 'langgraph.json');
      const graphs = { echo: `${fixtures}/echo.mts:graph` };
      await writeFile(file, JSON.stringify({ graphs, env: { LG_WEBHOOK_T: 'tok' }, webhooks }));
      return loadLangGraphConfig(file, { checkpointer: new MemorySaver() });
    };
    try {
      const loaded = await write({
        url: { require_https: true, disable_loopback: true },
        headers: { Authorization: 'Bearer ${{ env.LG_WEBHOOK_T }}' },
      });
      expect(loaded.webhooks).toMatchObject({
        requireHttps: true,
        disableLoopback: true,
        headers: { Authorization: 'Bearer tok' },
      });
      const leaking = write({ headers: { Authorization: '${{ env.PATH }}' } });
      await expect(leaking).rejects.toThrow(GraphLoadError);
      await expect(leaking).rejects.toThrow(/may only read variables starting with LG_WEBHOOK_/);
      await expect(write({ url: { allowed_ports: ['443'] } })).rejects.toThrow(GraphLoadError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
