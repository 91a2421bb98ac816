import { Annotation, END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { countTaskChunk, createMeteringHandler } from './metering-callbacks';
import { createMetricCounts } from './metric-counts';

const State = Annotation.Root({
  n: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});
const subgraph = new StateGraph(State)
  .addNode('s1', () => ({ n: 1 }))
  .addNode('s2', () => ({ n: 1 }))
  .addEdge(START, 's1')
  .addEdge('s1', 's2')
  .addEdge('s2', END)
  .compile();

/**
 * Eight node executions: `a`; `sub` (a compiled subgraph as a node) and its `s1`, `s2`; `inner`
 * (a node invoking the subgraph) and its `s1`, `s2`; `empty` (writes nothing). LangGraph's three
 * `__start__` tasks (one per graph run) are not nodes of the agent.
 */
const graph = new StateGraph(State)
  .addNode('a', () => ({ n: 1 }))
  .addNode('sub', subgraph)
  .addNode('inner', async (_state, config) => {
    await subgraph.invoke({ n: 0 }, config);
    return {};
  })
  .addNode('empty', () => ({}))
  .addEdge(START, 'a')
  .addEdge('a', 'sub')
  .addEdge('sub', 'inner')
  .addEdge('inner', 'empty')
  .addEdge('empty', END)
  .compile({ checkpointer: new MemorySaver() });

const nodesOf = (counts: ReturnType<typeof createMetricCounts>) =>
  counts.drain().reduce((sum, count) => sum + count.nodes_executed, 0);

describe('node executions, counted from callbacks or from the tasks stream', () => {
  it('the tasks stream counts every node run, subgraph nodes included', async () => {
    const counts = createMetricCounts();
    const stream = await graph.stream(
      { n: 0 },
      { configurable: { thread_id: 'stream' }, streamMode: ['values', 'tasks'], subgraphs: true },
    );
    for await (const [, mode, payload] of stream) {
      if (mode === 'tasks') countTaskChunk(counts, 'agent', payload);
    }
    expect(nodesOf(counts)).toBe(8);
  });

  it('the callback handler counts the same nodes and one run', async () => {
    const counts = createMetricCounts();
    const handler = createMeteringHandler(counts, 'agent');
    await graph.invoke(
      { n: 0 },
      { configurable: { thread_id: 'callbacks' }, callbacks: [handler] },
    );
    const [count] = counts.drain();
    expect(count).toMatchObject({ project_name: 'agent', agent_runs: 1, nodes_executed: 8 });
  });
});
