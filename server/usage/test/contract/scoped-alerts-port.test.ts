import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { limitMonth } from '@contracts/usage/limit-period';
import { openStore } from '@server/usage/store/open-usage-store';
import type { UsageStore } from '@server/usage/store/usage-store';
import type { ScopedAlertRow } from '@server/usage/store/usage-limit-store';
import { LIMIT_BACKENDS } from '../limit-backends';
import { freshStore, type FreshStore } from './fresh-stores';

/**
 * Alerts of project, user and spend limits through the port (`limits.scopedAlerts`), run the
 * same on every backend.
 */
describe.each(LIMIT_BACKENDS)(
  'alerts of project, user and spend limits through the port ($name)',
  ({ kind, skip }) => {
    let store: FreshStore;
    let backend: UsageStore;
    const workspace = randomUUID();
    const project = randomUUID();

    beforeEach(async ({ skip: skipTest }) => {
      if (skip) return skipTest();
      store = await freshStore(kind, 'scoped_alerts_port');
      backend = await openStore(store.choice);
      await backend.catalog.createWorkspace({
        id: workspace,
        displayName: 'Acme',
        createdAt: new Date('2026-01-01'),
      });
    });
    afterEach(async () => {
      if (skip) return;
      await backend.close();
      await store.drop();
    });

    const alertsPort = () => backend.limits.scopedAlerts;

    it('records an alert once per limit, month and threshold, and logs its deliveries', async () => {
      const month = limitMonth(Date.now());
      const row: ScopedAlertRow = {
        alertId: randomUUID(),
        workspaceId: workspace,
        scope: 'project',
        targetId: project,
        limitType: 'monthly_traces',
        monthStartMs: month.startMs,
        threshold: 80,
        used: 8,
        limitValue: 10,
        crossedAt: new Date(),
      };
      const spend: ScopedAlertRow = {
        ...row,
        alertId: randomUUID(),
        scope: 'workspace',
        targetId: workspace,
        limitType: 'monthly_spend',
        used: 8.25,
        limitValue: 10.5,
      };
      expect(await alertsPort().insertAlerts([row, spend])).toEqual([row, spend]);
      // Crossed again (here or on another evaluation): nothing recorded, nothing to send.
      expect(await alertsPort().insertAlerts([{ ...row, alertId: randomUUID(), used: 9 }])).toEqual(
        [],
      );
      // The same threshold of another project's limit is its own alert.
      const other = { ...row, alertId: randomUUID(), targetId: randomUUID() };
      expect(await alertsPort().insertAlerts([other])).toEqual([other]);
      const listed = await alertsPort().alerts([workspace], month.startMs);
      const byId = (a: string[], b: string[]) => String(a[0]).localeCompare(String(b[0]));
      expect(
        listed
          .map((alert) => [alert.alertId, alert.scope, alert.targetId, String(alert.used)])
          .sort(byId),
      ).toEqual(
        [
          [row.alertId, 'project', project, '8'],
          [other.alertId, 'project', other.targetId, '8'],
          [spend.alertId, 'workspace', workspace, '8.25'],
        ].sort(byId),
      );

      await alertsPort().recordDelivery(spend, {
        alertId: spend.alertId,
        attempt: 1,
        attemptedAt: new Date(),
        status: 204,
        ok: true,
        error: null,
      });
      expect(await backend.limits.deliveries([workspace])).toEqual([
        expect.objectContaining({
          alert_id: spend.alertId,
          limit_type: 'monthly_spend',
          scope: 'workspace',
          target_id: workspace,
          threshold: 80,
          ok: true,
        }),
      ]);
    });

    it('answers every project and user asked for, by scope and target, none counted yet', async () => {
      const user = randomUUID();
      const usage = await alertsPort().targetUsage(
        [
          { scope: 'project', targetId: project },
          { scope: 'user', targetId: user },
        ],
        limitMonth(Date.now()),
      );
      expect(Object.fromEntries(usage)).toEqual({ [`project|${project}`]: 0, [`user|${user}`]: 0 });
    });
  },
);
