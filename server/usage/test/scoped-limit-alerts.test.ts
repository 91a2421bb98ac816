import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  alertDeliveryListSchema,
  limitAlertPayloadSchema,
  limitStatusListSchema,
  scopedLimitSchema,
  type LimitAlertPayload,
} from '@contracts/usage/usage-limits';
import { demoKeyOwner } from '@server/usage/seed/demo-key-owners';
import { DEMO_KEY_GRANTS } from '@server/usage/seed/demo-keys';
import { LIMIT_BACKENDS, limitBackendEnv } from './limit-backends';
import { putLimitResponse } from './limit-helpers';
import { ADMIN, startTestServer, TEST_WORKSPACE_IDS, type TestServer } from './test-server';

/**
 * Alerts and the month's status of project, user and spend limits, on every backend behind the
 * real server: the same bodies, the same alerts, each sent once.
 */
const projectWorkspace = TEST_WORKSPACE_IDS[2] ?? '';
const spendWorkspace = TEST_WORKSPACE_IDS[3] ?? '';
const adminGrant = DEMO_KEY_GRANTS.find((grant) => grant.key === 'lsv2_demo_admin');

describe.each(LIMIT_BACKENDS)(
  'alerts and status of project, user and spend limits ($name)',
  (backend) => {
    const received: LimitAlertPayload[] = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push(limitAlertPayloadSchema.parse(JSON.parse(body)));
        response.writeHead(204).end();
      });
    });
    let server: TestServer | undefined;
    let store: Awaited<ReturnType<typeof limitBackendEnv>> | undefined;
    const running = () => {
      if (!server) throw new Error('The test server is not running');
      return server;
    };

    beforeAll(async () => {
      if (backend.skip) return;
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const { port } = receiver.address() as AddressInfo;
      store = await limitBackendEnv(backend, 'scoped_alerts');
      server = await startTestServer({
        ...store.env,
        USAGE_ALERT_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/usage`,
        USAGE_ALERT_WEBHOOK_SECRET: 'whsec_test_only',
        USAGE_ALERT_WEBHOOK_BACKOFF_MS: '20',
      });
    }, 120_000);
    afterAll(async () => {
      if (backend.skip) return;
      await server?.close();
      await store?.drop();
      await new Promise((resolve) => receiver.close(resolve));
    });
    beforeEach(({ skip }) => {
      if (backend.skip) skip();
    });

    /** Posts `count` new root runs to `project` of `workspace`; the answer's status. */
    async function sendRoots(workspace: string, project: string, count: number) {
      const post = Array.from({ length: count }, () => {
        const id = randomUUID();
        return { id, trace_id: id, name: 'root', run_type: 'chain', session_name: project };
      });
      const response = await fetch(`${running().baseUrl}/api/v1/runs/batch`, {
        method: 'POST',
        headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
        body: JSON.stringify({ post }),
      });
      await running().service.alerts.idle();
      return response.status;
    }

    async function putScoped(workspace: string, body: unknown) {
      const response = await putLimitResponse(running().baseUrl, workspace, body);
      expect(response.status).toBe(200);
      const limit = scopedLimitSchema.parse(await response.json());
      await running().service.alerts.idle();
      return limit;
    }

    async function statusOf(limitId: string) {
      const response = await fetch(`${running().baseUrl}/api/v1/usage-limits/org/status`, {
        headers: ADMIN,
      });
      return limitStatusListSchema.parse(await response.json()).find((s) => s.limit_id === limitId);
    }

    /** The alerts received for one limit: [threshold, used, limit] each. */
    const alertsOf = (scope: string, targetId: string, type: string) =>
      received
        .filter((p) => p.scope === scope && p.target_id === targetId && p.limit_type === type)
        .map((p) => [p.threshold, p.used, p.limit_value]);

    it('a project limit alerts 50/80/100 % in traces once each, and its status counts the project', async () => {
      const project = `alerted-${randomUUID().slice(0, 8)}`;
      const created = await fetch(`${running().baseUrl}/api/v1/sessions`, {
        method: 'POST',
        headers: { ...ADMIN, 'x-tenant-id': projectWorkspace, 'content-type': 'application/json' },
        body: JSON.stringify({ name: project }),
      });
      const projectId = ((await created.json()) as { id: string }).id;
      const body = { scope: 'project', target_id: projectId, limit_type: 'monthly_traces' };
      const limit = await putScoped(projectWorkspace, { ...body, limit_value: 10 });

      expect(await sendRoots(projectWorkspace, project, 5)).toBe(202);
      // Another project's traces count for the workspace, not for this limit.
      expect(await sendRoots(projectWorkspace, `other-${project}`, 7)).toBe(202);
      expect(alertsOf('project', projectId, 'monthly_traces')).toEqual([[50, 5, 10]]);
      expect(await sendRoots(projectWorkspace, project, 3)).toBe(202);
      expect(await sendRoots(projectWorkspace, project, 4)).toBe(429);
      // Looked at again (more refusals, the limit put again): nothing is sent twice.
      expect(await sendRoots(projectWorkspace, project, 1)).toBe(429);
      await putScoped(projectWorkspace, { ...body, limit_value: 10 });
      expect(alertsOf('project', projectId, 'monthly_traces')).toEqual([
        [50, 5, 10],
        [80, 8, 10],
        [100, 10, 10],
      ]);
      expect(received.find((p) => p.target_id === projectId)).toMatchObject({
        workspace_id: projectWorkspace,
        type: 'usage_limit.threshold_crossed',
      });

      const status = await statusOf(limit.id);
      expect(status).toMatchObject({
        workspace_id: projectWorkspace,
        scope: 'project',
        target_id: projectId,
        limit_type: 'monthly_traces',
        limit_value: 10,
        used: 10,
        source: 'own',
        // 2 of the 4, then the 1 sent after: refused by this limit, counted for it.
        refused: 3,
        alert_thresholds: [50, 80, 100],
        can_edit: true,
      });
      expect(status?.alerts.map((alert) => alert.threshold)).toEqual([50, 80, 100]);
      expect(status?.reached_at).toBe(status?.alerts[2]?.crossed_at);

      const log = await fetch(`${running().baseUrl}/api/v1/usage-limits/org/deliveries`, {
        headers: ADMIN,
      });
      const deliveries = alertDeliveryListSchema
        .parse(await log.json())
        .filter((entry) => entry.target_id === projectId);
      expect(deliveries.map((entry) => [entry.threshold, entry.scope, entry.ok])).toEqual([
        [100, 'project', true],
        [80, 'project', true],
        [50, 'project', true],
      ]);
    });

    it("a user limit's status counts the user's traces of the month", async () => {
      if (!adminGrant) throw new Error('No demo admin grant');
      const userId = demoKeyOwner(adminGrant).userId;
      const before = received.length;
      // Every trace of this file so far was sent with the admin key: 5 + 7 + 3 + 2 billed.
      const limit = await putScoped(projectWorkspace, {
        scope: 'user',
        target_id: userId,
        limit_type: 'monthly_traces',
        limit_value: 100,
        alert_thresholds: [20],
      });
      expect(await statusOf(limit.id)).toMatchObject({
        scope: 'user',
        target_id: userId,
        used: 17,
        refused: 0,
      });
      expect(received.slice(before).map((p) => [p.scope, p.threshold, p.used])).toEqual([]);
      expect(await sendRoots(projectWorkspace, 'by-user', 3)).toBe(202);
      expect(received.slice(before).map((p) => [p.scope, p.threshold, p.used])).toEqual([
        ['user', 20, 20],
      ]);
    });

    it('a spend limit alerts its thresholds in dollars, its 100 % when its traces run out', async () => {
      // $0.01 at the default plan's $0.0005 a base trace: 20 traces (none extended).
      const limit = await putScoped(spendWorkspace, {
        limit_type: 'monthly_spend',
        limit_value: 0.01,
        extended_share: 0,
      });
      expect(await statusOf(limit.id)).toMatchObject({
        scope: 'workspace',
        target_id: spendWorkspace,
        limit_type: 'monthly_spend',
        limit_value: 0.01,
        used: 0,
        reached_at: null,
      });
      expect(await sendRoots(spendWorkspace, 'spend', 9)).toBe(202);
      expect(alertsOf('workspace', spendWorkspace, 'monthly_spend')).toEqual([]);
      expect(await sendRoots(spendWorkspace, 'spend', 1)).toBe(202);
      expect(alertsOf('workspace', spendWorkspace, 'monthly_spend')).toEqual([[50, 0.005, 0.01]]);
      expect(await sendRoots(spendWorkspace, 'spend', 6)).toBe(202);
      expect(await sendRoots(spendWorkspace, 'spend', 6)).toBe(429);
      expect(alertsOf('workspace', spendWorkspace, 'monthly_spend')).toEqual([
        [50, 0.005, 0.01],
        [80, 0.008, 0.01],
        [100, 0.01, 0.01],
      ]);
      const status = await statusOf(limit.id);
      // 4 of the last 6 fit in the 20 traces the dollars bought: 2 refused by the spend limit.
      expect(status).toMatchObject({ used: 0.01, limit_value: 0.01, refused: 2 });
      expect(status?.reached_at).not.toBeNull();
    });
  },
);
