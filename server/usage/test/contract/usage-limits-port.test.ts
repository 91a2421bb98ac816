import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { limitMonth } from '@contracts/usage/limit-period';
import { openStore } from '@server/usage/store/open-usage-store';
import type { UsageStore } from '@server/usage/store/usage-store';
import { LIMIT_BACKENDS } from '../limit-backends';
import { freshStore, type FreshStore } from './fresh-stores';

/**
 * The limits part of the port, run the same on every backend (add a backend below): what the
 * routes and the ingestion path rely on, through `UsageStore` only.
 */

describe.each(LIMIT_BACKENDS)('usage limits through the port ($name)', ({ kind, skip }) => {
  let store: FreshStore;
  let backend: UsageStore;
  const old = randomUUID();
  const fresh = randomUUID();

  beforeEach(async ({ skip: skipTest }) => {
    if (skip) return skipTest();
    store = await freshStore(kind, 'limits_port');
    backend = await openStore(store.choice);
    await backend.catalog.createWorkspace({
      id: old,
      displayName: 'Old',
      createdAt: new Date('2026-01-01'),
    });
  });
  afterEach(async () => {
    if (skip) return;
    await backend.close();
    await store.drop();
  });

  const limits = () => backend.limits;
  const batch = (workspaceId: string, runIds: string[], project = 'p') => ({
    workspaceId,
    userId: null,
    apiKeyId: null,
    runs: runIds.map((runId) => ({ runId, projectName: project })),
  });

  it('keeps one limit per type: an update keeps its id and creation time', async () => {
    const first = await limits().upsert({
      tenantId: old,
      limitType: 'monthly_traces',
      limitValue: 5,
    });
    const second = await limits().upsert({
      tenantId: old,
      limitType: 'monthly_traces',
      limitValue: 7,
    });
    expect(second).toMatchObject({ id: first.id, created_at: first.created_at, limit_value: 7 });
    expect(second.alert_thresholds).toEqual([50, 80, 100]);
    await limits().upsert({
      tenantId: old,
      limitType: 'monthly_longlived_traces',
      limitValue: 1,
    });
    expect((await limits().list([old])).map((limit) => limit.limit_type)).toEqual([
      'monthly_longlived_traces',
      'monthly_traces',
    ]);
    await limits().remove(first.id);
    expect(await limits().find(first.id)).toBeUndefined();
  });

  it('gives the org default to workspaces created after it, not to older ones', async () => {
    await limits().putDefault('monthly_traces', 10);
    await backend.catalog.createWorkspace({
      id: fresh,
      displayName: 'New',
      createdAt: new Date(Date.now() + 1000),
    });
    const effective = await limits().effective();
    expect(effective.get(old)).toBeUndefined();
    expect(effective.get(fresh)).toEqual([
      expect.objectContaining({
        limitType: 'monthly_traces',
        limitValue: 10,
        source: 'org_default',
      }),
    ]);
  });

  it('bills up to the limit inside ingestRuns, never refuses or counts a resend, and sees a raise', async () => {
    await limits().upsert({ tenantId: old, limitType: 'monthly_traces', limitValue: 2 });
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const first = await backend.billing.ingestRuns(batch(old, ids, 'flow'));
    expect(first.inserted).toBe(2);
    expect(first.refused).toEqual([
      {
        runId: ids[2],
        workspaceId: old,
        limitType: 'monthly_traces',
        limitValue: 2,
        scope: 'workspace',
        targetId: old,
      },
    ]);
    const again = await backend.billing.ingestRuns(batch(old, ids, 'flow'));
    expect({ inserted: again.inserted, duplicates: again.duplicates }).toEqual({
      inserted: 0,
      duplicates: 2,
    });
    expect(again.refused.map((run) => run.runId)).toEqual([ids[2]]);

    await limits().upsert({ tenantId: old, limitType: 'monthly_traces', limitValue: 3 });
    expect((await backend.billing.ingestRuns(batch(old, ids, 'flow'))).inserted).toBe(1);

    const month = limitMonth(Date.now());
    expect((await limits().monthUsage([old], month)).get(old)).toEqual({
      monthly_traces: 3,
      monthly_longlived_traces: 0,
    });
    const refusals = await limits().refusals(
      [old],
      { fromMs: month.startMs, toMs: month.endMs },
      'flow',
    );
    expect(refusals).toEqual([{ workspaceId: old, limitType: 'monthly_traces', refused: 2 }]);
  });

  it('counts against the long-lived limit only the traces of long-lived projects', async () => {
    await backend.catalog.setProjectTier(old, 'kept', 'longlived');
    await limits().upsert({ tenantId: old, limitType: 'monthly_longlived_traces', limitValue: 2 });
    const kept = [randomUUID(), randomUUID(), randomUUID()];
    const result = await backend.billing.ingestRuns(batch(old, kept, 'kept'));
    expect(result.inserted).toBe(2);
    expect(result.refused).toEqual([
      {
        runId: kept[2],
        workspaceId: old,
        limitType: 'monthly_longlived_traces',
        limitValue: 2,
        scope: 'workspace',
        targetId: old,
      },
    ]);
    // Short-lived traces of the same workspace are not held to it.
    expect(
      (await backend.billing.ingestRuns(batch(old, [randomUUID(), randomUUID()], 'brief')))
        .inserted,
    ).toBe(2);
    expect((await limits().monthUsage([old], limitMonth(Date.now()))).get(old)).toEqual({
      monthly_traces: 4,
      monthly_longlived_traces: 2,
    });
  });

  it('records an alert once per month and threshold', async () => {
    const month = limitMonth(Date.now());
    const row = {
      alertId: randomUUID(),
      workspaceId: old,
      limitType: 'monthly_traces' as const,
      monthStartMs: month.startMs,
      threshold: 80,
      used: 8,
      limitValue: 10,
      crossedAt: new Date(),
    };
    expect(await limits().insertAlerts([row])).toEqual([row]);
    // Another evaluation (here or on another replica) crossing it again records and sends nothing.
    expect(await limits().insertAlerts([{ ...row, alertId: randomUUID(), used: 9 }])).toEqual([]);
    const alerts = await limits().alerts([old], month.startMs);
    expect(alerts.map((alert) => [alert.alertId, alert.used])).toEqual([[row.alertId, 8]]);
  });

  it('keeps limits across a reopen', async () => {
    const stored = await limits().upsert({
      tenantId: old,
      limitType: 'monthly_traces',
      limitValue: 0,
    });
    await backend.close();
    backend = await openStore(store.choice);
    expect(await limits().list([old])).toEqual([stored]);
    const refused = await backend.billing.ingestRuns(batch(old, [randomUUID()]));
    expect(refused.inserted).toBe(0);
    expect(refused.refused).toHaveLength(1);
  });

  it('holds a project limit to its project and keeps spend limits with their derived traces', async () => {
    const scoped = limits().scoped;
    const projectId = await backend.catalog.setProjectTier(old, 'capped', 'shortlived');
    const limit = await scoped.upsert({
      tenantId: old,
      scope: 'project',
      targetId: projectId,
      limitType: 'monthly_traces',
      limitValue: 2,
      extendedShare: null,
      derived: null,
    });
    const capped = [randomUUID(), randomUUID(), randomUUID()];
    const other = [randomUUID(), randomUUID(), randomUUID()];
    const first = await backend.billing.ingestRuns(batch(old, capped, 'capped'));
    const second = await backend.billing.ingestRuns(batch(old, other, 'other'));
    expect(first.inserted).toBe(2);
    expect(first.refused).toEqual([
      expect.objectContaining({ runId: capped[2], scope: 'project', targetId: projectId }),
    ]);
    expect(second).toMatchObject({ inserted: 3, refused: [] });

    const spend = await scoped.upsert({
      tenantId: old,
      scope: 'workspace',
      targetId: old,
      limitType: 'monthly_spend',
      limitValue: 12.5,
      extendedShare: 0.2,
      derived: { monthly_traces: 20_500, monthly_longlived_traces: 500 },
    });
    expect(await scoped.find(spend.id)).toEqual(spend);
    expect((await scoped.list([old])).map((entry) => entry.id).sort()).toEqual(
      [limit.id, spend.id].sort(),
    );
    await scoped.remove(limit.id);
    expect(await scoped.find(limit.id)).toBeUndefined();
  });
});
