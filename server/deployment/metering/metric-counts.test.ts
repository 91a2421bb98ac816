import { describe, expect, it } from 'vitest';
import { createMetricCounts } from './metric-counts';

const at = (time: string) => Date.parse(`2026-11-25T${time}Z`);

describe('createMetricCounts', () => {
  it('counts runs and nodes per project and UTC minute, and drains them once', () => {
    const counts = createMetricCounts();
    counts.addRun('agent', at('10:00:05'));
    counts.addNode('agent', at('10:00:05'));
    counts.addNode('agent', at('10:00:59.999'));
    counts.addNode('agent', at('10:01:00'));
    counts.addRun('slow', at('10:00:30'));
    expect(counts.drain()).toEqual([
      {
        project_name: 'agent',
        minute: '2026-11-25T10:00:00.000Z',
        agent_runs: 1,
        nodes_executed: 2,
      },
      {
        project_name: 'agent',
        minute: '2026-11-25T10:01:00.000Z',
        agent_runs: 0,
        nodes_executed: 1,
      },
      {
        project_name: 'slow',
        minute: '2026-11-25T10:00:00.000Z',
        agent_runs: 1,
        nodes_executed: 0,
      },
    ]);
    expect(counts.drain()).toEqual([]);
  });
});
