import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  limitAlertPayloadSchema,
  limitExceededSchema,
  limitStatusListSchema,
  scopedLimitSchema,
  type LimitAlertPayload,
  type LimitExceeded,
} from '@contracts/usage/usage-limits';
import { demoKeyOwner } from '@server/usage/seed/demo-key-owners';
import { DEMO_KEY_GRANTS } from '@server/usage/seed/demo-keys';
import { testProfile } from '@server/usage/seed/seed-profiles';
import { openStore } from '@server/usage/store/open-usage-store';
import { claimRuns } from '@server/usage/store/scale-out/billed-runs';
import {
  readyUrl,
  removeServerDataDirs,
  startServerProcess,
  type ServerProcess,
} from '@server/test/server-process';
import { jsonTraces } from '../ingest-helpers';
import { limitStatus, putLimit, putLimitResponse } from '../limit-helpers';
import { ADMIN, TEST_WORKSPACE_IDS } from '../test-server';
import { freshStore, HAVE_SCALE_OUT_SERVERS, SKIP_REASON, type FreshStore } from './fresh-stores';

const workspace = TEST_WORKSPACE_IDS[0] ?? '';
const adminGrant = DEMO_KEY_GRANTS.find((grant) => grant.key === 'lsv2_demo_admin');

/** One `/runs/batch` of `size` new root runs to a replica: the traces it says it billed. */
async function sendBatch(baseUrl: string, project: string, size: number): Promise<number> {
  const post = Array.from({ length: size }, () => {
    const id = randomUUID();
    return { id, trace_id: id, name: 'root', run_type: 'chain', session_name: project };
  });
  const response = await fetch(`${baseUrl}/api/v1/runs/batch`, {
    method: 'POST',
    headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
    body: JSON.stringify({ post }),
  });
  const body: unknown = await response.json();
  if (response.status === 429) return limitExceededSchema.parse(body).traces_billed;
  expect(response.status).toBe(202);
  return (body as { traces_billed: number }).traces_billed;
}

/** One `/runs/batch` of root runs to a replica: what it billed, and its 429 body if refused. */
async function postRoots(baseUrl: string, runs: readonly { id: string; project: string }[]) {
  const response = await fetch(`${baseUrl}/api/v1/runs/batch`, {
    method: 'POST',
    headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
    body: JSON.stringify({
      post: runs.map(({ id, project }) => ({
        id,
        trace_id: id,
        name: 'root',
        run_type: 'chain',
        session_name: project,
      })),
    }),
  });
  const body: unknown = await response.json();
  if (response.status === 429) {
    const refused = limitExceededSchema.parse(body);
    return { billed: refused.traces_billed, refused };
  }
  expect(response.status).toBe(202);
  return { billed: z.object({ traces_billed: z.number() }).parse(body).traces_billed };
}

/**
 * 8 senders at once, each alternating replicas, each posting `batches` batches of one new root
 * per entry of `projects`: the runs sent, the traces the replicas said they billed, the 429s.
 */
async function sendAll(a: string, b: string, batches: number, projects: readonly string[]) {
  const sent: { id: string; project: string }[] = [];
  const refused: LimitExceeded[] = [];
  let billed = 0;
  await Promise.all(
    Array.from({ length: 8 }, async (_, sender) => {
      for (let i = 0; i < batches; i += 1) {
        const runs = projects.map((project) => ({ id: randomUUID(), project }));
        sent.push(...runs);
        const answer = await postRoots((sender + i) % 2 === 0 ? a : b, runs);
        billed += answer.billed;
        if (answer.refused) refused.push(answer.refused);
      }
    }),
  );
  return { sent, billed, refused };
}

/** One limit's entry in a replica's month status. */
async function limitStatusOf(baseUrl: string, limitId: string) {
  const response = await fetch(`${baseUrl}/api/v1/usage-limits/org/status`, { headers: ADMIN });
  return limitStatusListSchema.parse(await response.json()).find((s) => s.limit_id === limitId);
}

async function putScoped(baseUrl: string, body: unknown) {
  const response = await putLimitResponse(baseUrl, workspace, body);
  expect(response.status).toBe(200);
  return scopedLimitSchema.parse(await response.json());
}

/** A webhook receiver that answers 200 and keeps every alert. */
const received: LimitAlertPayload[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    received.push(limitAlertPayloadSchema.parse(JSON.parse(body)));
    response.writeHead(200).end();
  });
});

/** The thresholds alerted for one limit, in the order they arrived. */
const thresholdsOf = (scope: string, targetId: string, limitType = 'monthly_traces') =>
  received
    .filter((p) => p.scope === scope && p.target_id === targetId && p.limit_type === limitType)
    .map((p) => p.threshold);

/** Waits until a limit's alerts are `expected` (in any order), then checks none comes late. */
async function expectAlertedOnce(scope: string, targetId: string, expected: number[]) {
  await expect
    .poll(() => thresholdsOf(scope, targetId).sort((x, y) => x - y), { timeout: 10_000 })
    .toEqual(expected);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(thresholdsOf(scope, targetId)).toHaveLength(expected.length);
}

describe.skipIf(!HAVE_SCALE_OUT_SERVERS)(
  `usage limits across two replicas on one ClickHouse + Postgres (skipped when ${SKIP_REASON})`,
  () => {
    let store: FreshStore;
    const replicas: ServerProcess[] = [];
    const urls: string[] = [];

    beforeAll(async () => {
      store = await freshStore('clickhouse', 'limit_replicas');
      const seeding = await openStore(store.choice);
      await seeding.seeder.seedIfEmpty(testProfile()).finally(() => seeding.close());
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const { port } = receiver.address() as AddressInfo;
      for (let i = 0; i < 2; i += 1) {
        replicas.push(
          await startServerProcess({
            ...store.env,
            USAGE_ALERT_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/usage`,
            USAGE_ALERT_WEBHOOK_SECRET: 'whsec_replicas',
          }),
        );
      }
      const ready = await Promise.all(replicas.map((replica) => readyUrl(replica)));
      urls.push(...ready.map((url) => url.replace(/\/$/, '')));
    }, 120_000);
    afterAll(async () => {
      for (const replica of replicas) replica.child.kill('SIGTERM');
      await Promise.all(replicas.map((replica) => replica.exited));
      await new Promise((resolve) => receiver.close(resolve));
      await store?.drop();
      await removeServerDataDirs();
    });

    it('bills exactly up to the limit with 8 senders split over both replicas, alerting each threshold once', async () => {
      const [a = '', b = ''] = urls;
      const project = `replica-race-${randomUUID().slice(0, 8)}`;
      const before = await limitStatus(a, workspace);
      const headroom = 300;
      await putLimit(a, workspace, before.used + headroom);

      // 8 senders, each alternating replicas, 20 batches of 5 roots: 800 new roots for 300 places.
      const acknowledged = await Promise.all(
        Array.from({ length: 8 }, async (_, sender) => {
          let billed = 0;
          for (let i = 0; i < 20; i += 1)
            billed += await sendBatch((sender + i) % 2 === 0 ? a : b, project, 5);
          return billed;
        }),
      );

      const billed = await jsonTraces(a, 'project_name', project);
      console.info(
        `2 replicas, 8 senders x 20 batches x 5 roots, limit +${headroom}: ` +
          `billed ${billed}, overshoot ${billed - headroom}`,
      );
      expect(acknowledged.reduce((sum, n) => sum + n, 0)).toBe(billed);
      expect(billed - headroom).toBe(0);
      expect(await jsonTraces(b, 'project_name', project)).toBe(headroom);
      for (const url of urls)
        expect((await limitStatus(url, workspace)).used).toBe(before.used + headroom);

      // Both replicas looked at the count after every batch; each threshold went out once.
      await expectAlertedOnce('workspace', workspace, [50, 80, 100]);
    }, 120_000);

    it('lets new traces in at once on the other replica when the limit is raised', async () => {
      const [a = '', b = ''] = urls;
      const project = `replica-raise-${randomUUID().slice(0, 8)}`;
      const before = await limitStatus(a, workspace);
      expect(await sendBatch(b, project, 2)).toBe(0);
      await putLimit(a, workspace, before.used + 2);
      expect(await sendBatch(b, project, 3)).toBe(2);
      expect(await jsonTraces(b, 'project_name', project)).toBe(2);
    });

    it('holds project and user limits exactly across both replicas, never counting a resend', async () => {
      const [a = '', b = ''] = urls;
      const before = await limitStatus(a, workspace);
      await putLimit(a, workspace, before.used + 1_000_000);
      const capped = `replica-capped-${randomUUID().slice(0, 8)}`;
      const free = `replica-free-${randomUUID().slice(0, 8)}`;
      const session = await fetch(`${a}/api/v1/sessions`, {
        method: 'POST',
        headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
        body: JSON.stringify({ name: capped }),
      });
      const projectId = z.object({ id: z.string() }).parse(await session.json()).id;
      const projectLimit = await putScoped(b, {
        scope: 'project',
        target_id: projectId,
        limit_type: 'monthly_traces',
        limit_value: 37,
      });

      // 8 senders alternating replicas, 10 batches of 2 capped + 1 free root each.
      const phase1 = await sendAll(a, b, 10, [capped, capped, free]);
      const cappedIds = phase1.sent.filter((run) => run.project === capped).map((run) => run.id);
      const refusedIds = new Set(phase1.refused.flatMap((body) => body.refused_run_ids));
      for (const url of urls) {
        expect(await jsonTraces(url, 'project_name', capped)).toBe(37);
        expect(await jsonTraces(url, 'project_name', free)).toBe(80);
      }
      expect(refusedIds.size).toBe(160 - 37);
      expect(cappedIds.filter((id) => refusedIds.has(id))).toHaveLength(160 - 37);
      expect(phase1.billed).toBe(37 + 80);
      for (const body of phase1.refused)
        expect(body).toMatchObject({ scope: 'project', target_id: projectId, limit_value: 37 });
      // Billed and refused runs sent again, to either replica: nothing more billed or counted.
      const billedIds = cappedIds.filter((id) => !refusedIds.has(id));
      const resend = [...billedIds.slice(0, 5), ...[...refusedIds].slice(0, 5)];
      for (const url of urls)
        await postRoots(
          url,
          resend.map((id) => ({ id, project: capped })),
        );
      expect(await jsonTraces(b, 'project_name', capped)).toBe(37);
      // Both replicas evaluated the project's limit after their batches: each threshold once,
      // and either replica's month status shows the same alerts.
      await expectAlertedOnce('project', projectId, [50, 80, 100]);
      for (const url of urls) {
        const status = await limitStatusOf(url, projectLimit.id);
        expect(status).toMatchObject({ scope: 'project', target_id: projectId, used: 37 });
        expect(status?.alerts.map((alert) => alert.threshold)).toEqual([50, 80, 100]);
      }

      // The admin key's user: its counter holds the month so far (every workspace's traces).
      if (!adminGrant || store.choice.kind !== 'clickhouse') throw new Error('a ClickHouse store');
      const userId = demoKeyOwner(adminGrant).userId;
      const db = new pg.Pool({ connectionString: store.choice.databaseUri, max: 1 });
      const counted = await db.query<{ traces: string }>(
        `SELECT traces FROM usage.limit_target_counters
         WHERE scope = 'user' AND target_id = $1 AND month = date_trunc('month', now())::date`,
        [userId],
      );
      await db.end();
      const userBefore = Number(counted.rows[0]?.traces);
      expect(userBefore).toBeGreaterThanOrEqual(37 + 80);
      const userLimit = await putScoped(a, {
        scope: 'user',
        target_id: userId,
        limit_type: 'monthly_traces',
        limit_value: userBefore + 45,
      });
      const userProject = `replica-user-${randomUUID().slice(0, 8)}`;
      const phase2 = await sendAll(a, b, 5, [userProject, userProject, userProject]);
      expect(await jsonTraces(a, 'project_name', userProject)).toBe(45);
      expect(phase2.billed).toBe(45);
      expect(phase2.refused.flatMap((body) => body.refused_run_ids)).toHaveLength(120 - 45);
      for (const body of phase2.refused)
        expect(body).toMatchObject({ scope: 'user', target_id: userId });
      await expectAlertedOnce('user', userId, [50, 80, 100]);
      for (const limit of [projectLimit, userLimit]) {
        const removed = await fetch(`${b}/api/v1/usage-limits/${limit.id}`, {
          method: 'DELETE',
          headers: ADMIN,
        });
        expect(removed.status).toBe(200);
      }
    }, 120_000);

    it('leaks no count when a replica is killed -9 while ingesting: dead claims give theirs back', async () => {
      const [a = '', b = ''] = urls;
      const project = `replica-kill-${randomUUID().slice(0, 8)}`;
      const before = await limitStatus(b, workspace);
      await putLimit(b, workspace, before.used + 1_000_000);
      const batches = Array.from({ length: 40 }, () =>
        Array.from({ length: 50 }, () => randomUUID()),
      );
      const post = (ids: string[]) =>
        ids.map((id) => ({
          id,
          trace_id: id,
          name: 'root',
          run_type: 'chain',
          session_name: project,
        }));
      const send = async (url: string, ids: string[]) => {
        try {
          const response = await fetch(`${url}/api/v1/runs/batch`, {
            method: 'POST',
            headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
            body: JSON.stringify({ post: post(ids) }),
          });
          return response.status;
        } catch {
          return null;
        }
      };
      let next = 0;
      let ackedOnA = 0;
      const sender = async () => {
        while (next < batches.length) {
          const index = next++;
          const status = await send(index % 2 === 0 ? a : b, batches[index] ?? []);
          if (status === 202 && index % 2 === 0) ackedOnA += 1;
        }
      };
      const senders = Array.from({ length: 4 }, sender);
      await expect.poll(() => ackedOnA, { timeout: 30_000 }).toBeGreaterThan(0);
      replicas[0]?.child.kill('SIGKILL');
      await Promise.all(senders);
      if (store.choice.kind !== 'clickhouse') throw new Error('a ClickHouse store');
      const db = new pg.Pool({ connectionString: store.choice.databaseUri, max: 2 });
      const held = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM usage.billed_runs WHERE claim IS NOT NULL',
      );
      const heldByKilled = held.rows[0]?.n ?? 0;
      console.info(`claims left unconfirmed by the killed replica: ${heldByKilled}`);
      // Where the kill fell is chance: one more replica dies for sure between its claim (runs
      // counted) and its ClickHouse insert — the replicas' own claim code, never confirmed.
      const lost = Array.from({ length: 25 }, () => randomUUID());
      const day = new Date().toISOString().slice(0, 10);
      const dead = await claimRuns(
        db,
        randomUUID(),
        lost.map((runId) => ({
          runId,
          workspaceId: workspace,
          day,
          limitedProject: project,
        })),
        async () => new Set(),
      );
      await db.end();
      expect(dead.claimed).toEqual(new Set(lost));
      // Until they are settled, dead claims stay counted: ours, and any run the killed replica
      // had claimed without its trace landing (none to all of the unconfirmed ones).
      const counted =
        (await limitStatus(b, workspace)).used -
        before.used -
        (await jsonTraces(b, 'project_name', project));
      expect(counted).toBeGreaterThanOrEqual(lost.length);
      expect(counted).toBeLessThanOrEqual(lost.length + heldByKilled);
      // Once the dead replica's claims are older than the lease, the survivor settles them: the
      // month's count is what ClickHouse holds, nothing counted for traces that never landed.
      await expect
        .poll(
          async () =>
            (await limitStatus(b, workspace)).used -
            before.used -
            (await jsonTraces(b, 'project_name', project)),
          { timeout: 60_000, interval: 1_000 },
        )
        .toBe(0);
      // The client re-sends everything: each run counted once, in the traces and the count.
      for (const ids of [...batches, lost]) expect(await send(b, ids)).toBe(202);
      expect(await jsonTraces(b, 'project_name', project)).toBe(2_025);
      expect((await limitStatus(b, workspace)).used).toBe(before.used + 2_025);
    }, 120_000);
  },
);
