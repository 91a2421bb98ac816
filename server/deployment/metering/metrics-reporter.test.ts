import { describe, expect, it } from 'vitest';
import type { DeploymentReport } from '@contracts/usage/deployment-report';
import { loadConfig } from '@server/config';
import { createMetricsReporter } from './metrics-reporter';
import { meteringTargetFromConfig } from './run-metering';

const T0 = Date.parse('2026-11-25T10:00:00Z');

function reporterWith(answers: boolean[]) {
  let clock = T0;
  const sent: DeploymentReport[] = [];
  const reporter = createMetricsReporter({
    target: () => ({ url: 'http://usage.test/api/v1/deployments/metrics', apiKey: 'k' }),
    projects: ['agent'],
    intervalMs: 0,
    now: () => clock,
    send: async (_target, report) => {
      sent.push(structuredClone(report));
      return answers.shift() ?? true;
    },
  });
  return { reporter, sent, tick: (seconds: number) => (clock += seconds * 1000) };
}

describe('createMetricsReporter', () => {
  it('resends an unacknowledged report unchanged, then reports what came since', async () => {
    const { reporter, sent, tick } = reporterWith([false, true, true]);
    reporter.counts.addRun('agent', T0);
    tick(10);
    await reporter.flush(); // lost
    reporter.counts.addRun('agent', T0 + 11_000);
    tick(10);
    await reporter.flush(); // the lost report again, then a fresh one
    expect(sent.map((report) => [report.seq, report.counts.length, report.sent_at])).toEqual([
      [1, 1, '2026-11-25T10:00:10.000Z'],
      [1, 1, '2026-11-25T10:00:10.000Z'],
      [2, 1, '2026-11-25T10:00:20.000Z'],
    ]);
    const runs = sent.slice(1).flatMap((report) => report.counts.map((c) => c.agent_runs));
    expect(runs).toEqual([1, 1]);
  });

  it('a new process is a new replica with its own start', () => {
    const a = reporterWith([]).reporter;
    const b = reporterWith([]).reporter;
    expect(a.replicaId).not.toBe(b.replicaId);
  });

  it('sends nothing while the target is unknown', async () => {
    const sent: DeploymentReport[] = [];
    const reporter = createMetricsReporter({
      target: () => undefined,
      projects: ['agent'],
      intervalMs: 0,
      send: async (_target, report) => Boolean(sent.push(report)),
    });
    reporter.counts.addNode('agent', T0);
    await reporter.close();
    expect(sent).toEqual([]);
  });
});

describe('meteringTargetFromConfig', () => {
  const self = () => 'http://127.0.0.1:5173';
  it.each([
    [{}, 'http://127.0.0.1:5173/api/v1/deployments/metrics'],
    [{ REMOTE_METRICS_ROLLUP_ENABLED: 'false' }, undefined],
    [{ LANGSMITH_ENDPOINT: 'https://api.smith.langchain.com' }, undefined],
  ])('%j meters to %s', (env, url) => {
    expect(meteringTargetFromConfig(loadConfig(env), self)?.()?.url).toBe(url);
  });
});
