import { describe, expect, it } from 'vitest';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import type { DeploymentUsageRecord } from '@contracts/usage/deployment-usage-schema';
import { deploymentGroupBy } from './deployment-group-by';
import {
  buildDeploymentMatrices,
  deploymentMatricesToCsv,
  secondsToHours,
} from './deployment-matrices';

const DAY = 86_400_000;
const start = Date.parse('2026-03-01T00:00:00Z');
const grid = createBucketGrid(start, start + 3 * DAY, { days: 1, hours: 0 });
const record = (
  day: number,
  name: string,
  [nodes, runs, uptime]: [number, number, number],
): DeploymentUsageRecord => ({
  time_bucket: new Date(start + day * DAY).toISOString(),
  dimensions: { project_id: `id-${name}`, project_name: name },
  nodes_executed: nodes,
  agent_runs: runs,
  agent_uptime_seconds: uptime,
});

describe('buildDeploymentMatrices', () => {
  const records = [
    record(0, 'agent', [9, 3, 3600]),
    record(2, 'agent', [3, 1, 7200]),
    // Up, but idle: uptime only.
    record(1, '=idle', [0, 0, 86400]),
  ];
  const matrices = buildDeploymentMatrices(records, grid, 'project');

  it.each([
    ['nodes_executed', [9, 0, 3], 12],
    ['agent_runs', [3, 0, 1], 4],
    ['agent_uptime_seconds', [3600, 86400, 7200], 97200],
  ] as const)('%s: zero-filled buckets and total', (metric, buckets, total) => {
    expect(matrices[metric].bucketTotals).toEqual(buckets);
    expect(matrices[metric].total).toBe(total);
  });

  it('draws uptime in hours with one decimal, the unit of its card', () => {
    const hours = secondsToHours(matrices.agent_uptime_seconds);
    expect(hours.bucketTotals).toEqual([1, 24, 2]);
    expect(hours.values.get('id-agent')).toEqual([1, 0, 2]);
    expect(hours.total).toBe(27);
    expect(secondsToHours({ ...matrices.agent_uptime_seconds, total: 5_400 }).total).toBe(1.5);
  });

  it('writes the server columns, a row wherever a metric is above zero, cells neutralised', () => {
    expect(deploymentMatricesToCsv(matrices, 'project').split('\r\n')).toEqual([
      'Time Bucket Start,Time Bucket End,Workspace ID,Workspace Name,Project ID,Project Name,User ID,User Email,API Key Short Key,Nodes Executed,Agent Runs,Agent Uptime (seconds)',
      '2026-03-01T00:00:00.000Z,2026-03-02T00:00:00.000Z,,,id-agent,agent,,,,9,3,3600',
      "2026-03-02T00:00:00.000Z,2026-03-03T00:00:00.000Z,,,id-=idle,'=idle,,,,0,0,86400",
      '2026-03-03T00:00:00.000Z,2026-03-04T00:00:00.000Z,,,id-agent,agent,,,,3,1,7200',
      '',
    ]);
  });
});

describe('deploymentGroupBy', () => {
  it.each([
    ['workspace', 'workspace'],
    ['project', 'project'],
    ['user', 'workspace'],
    ['api_key', 'workspace'],
  ] as const)('%s -> %s', (groupBy, expected) => {
    expect(deploymentGroupBy(groupBy)).toBe(expected);
  });
});
