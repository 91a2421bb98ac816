import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  anyLimitListSchema,
  limitExceededSchema,
  scopedLimitSchema,
} from '@contracts/usage/usage-limits';
import { demoKeyOwner } from '@server/usage/seed/demo-key-owners';
import { DEMO_KEY_GRANTS } from '@server/usage/seed/demo-keys';
import { jsonTraces, sdkRootRun } from './ingest-helpers';
import { HAVE_SCALE_OUT_SERVERS, SKIP_REASON } from './contract/fresh-stores';
import { LIMIT_BACKENDS, useLimitServer, type LimitServer } from './limit-backends';
import {
  limitStatus,
  putLimitResponse,
  recordingSdkClient,
  type RecordedAnswer,
} from './limit-helpers';
import { ADMIN, TEST_WORKSPACE_IDS } from './test-server';

const workspace = TEST_WORKSPACE_IDS[TEST_WORKSPACE_IDS.length - 1] ?? '';
const adminGrant = DEMO_KEY_GRANTS.find((grant) => grant.key === 'lsv2_demo_admin');
vi.spyOn(console, 'warn').mockImplementation(() => undefined);

async function createProject(server: LimitServer, name: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/v1/sessions`, {
    method: 'POST',
    headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

async function putScoped(server: LimitServer, body: unknown) {
  const response = await putLimitResponse(server.baseUrl, workspace, body);
  expect(response.status).toBe(200);
  return scopedLimitSchema.parse(await response.json());
}

/**
 * `senders` langsmith SDK clients at once, each posting `perSender` new root runs of each
 * project in turn: the ids sent per project and every answer the SDK received.
 */
async function sendConcurrently(
  server: LimitServer,
  projects: readonly string[],
  senders: number,
  perSender: number,
) {
  const sent = new Map<string, string[]>(projects.map((project) => [project, []]));
  const answers: RecordedAnswer[] = [];
  await Promise.all(
    Array.from({ length: senders }, async () => {
      const sender = recordingSdkClient(server.baseUrl, 'lsv2_demo_admin', workspace);
      for (let i = 0; i < perSender; i += 1) {
        const runCreates = projects.map((project) => {
          const id = randomUUID();
          sent.get(project)?.push(id);
          return sdkRootRun(id, project);
        });
        await sender.client.multipartIngestRuns({ runCreates });
      }
      answers.push(...sender.answers);
    }),
  );
  const refused = answers
    .filter((answer) => answer.status === 429)
    .map((answer) => limitExceededSchema.parse(answer.body));
  return { sent, answers, refused };
}

/** Each backend's answers to one scripted sequence, ids and times replaced (see `transcript`). */
const transcripts = new Map<string, string>();

/**
 * The bodies as one text with every UUID replaced by its order of first appearance and every
 * instant by `<time>`: two backends that answer alike give the same text.
 */
function transcript(bodies: readonly unknown[]): string {
  const ids = new Map<string, string>();
  return JSON.stringify(bodies, null, 1)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => {
      const key = id.toLowerCase();
      if (!ids.has(key)) ids.set(key, `<id ${ids.size + 1}>`);
      return ids.get(key) ?? key;
    })
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>');
}

/** `POST /runs/batch` of new root runs of `project` (or these ids): status and body. */
async function postRoots(server: LimitServer, project: string, ids: readonly string[]) {
  const response = await fetch(`${server.baseUrl}/api/v1/runs/batch`, {
    method: 'POST',
    headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
    body: JSON.stringify({
      post: ids.map((id) => ({
        id,
        trace_id: id,
        name: 'root',
        run_type: 'chain',
        session_name: project,
      })),
    }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe.each(LIMIT_BACKENDS)('project, user and spend limits ($name)', (backend) => {
  const server = useLimitServer(backend, 'limit_scopes');

  it('answers a scripted sequence of limits and refusals (compared across backends below)', async () => {
    const project = 'scripted-project-limit';
    const projectId = await createProject(server, project);
    const put = await putLimitResponse(server.baseUrl, workspace, {
      scope: 'project',
      target_id: projectId,
      limit_type: 'monthly_traces',
      limit_value: 3,
      alert_thresholds: [50, 100],
    });
    const limit = scopedLimitSchema.parse(await put.clone().json());
    const spend = await putLimitResponse(server.baseUrl, workspace, {
      limit_type: 'monthly_spend',
      limit_value: 1000,
      extended_share: 0.25,
    });
    const spendLimit = scopedLimitSchema.parse(await spend.clone().json());
    const runs = Array.from({ length: 5 }, () => randomUUID());
    const first = await postRoots(server, project, runs);
    const resent = await postRoots(server, project, runs);
    const listed = await fetch(`${server.baseUrl}/api/v1/usage-limits`, {
      headers: { ...ADMIN, 'x-tenant-id': workspace },
    });
    const scoped = anyLimitListSchema
      .parse(await listed.json())
      .filter((entry) => entry.id === limit.id || entry.id === spendLimit.id);
    for (const id of [limit.id, spendLimit.id]) {
      await fetch(`${server.baseUrl}/api/v1/usage-limits/${id}`, {
        method: 'DELETE',
        headers: ADMIN,
      });
    }
    expect(first.status).toBe(429);
    expect(resent.status).toBe(429);
    expect(limitExceededSchema.parse(resent.body)).toMatchObject({
      refused_run_ids: runs.slice(3),
      traces_billed: 0,
    });
    transcripts.set(
      backend.kind,
      transcript([
        [put.status, await put.json()],
        [spend.status, await spend.json()],
        first,
        resent,
        scoped,
      ]),
    );
  });

  it('a project limit refuses exactly the runs over it from 8 senders, and no other project', async () => {
    const limited = `scoped-${randomUUID().slice(0, 8)}`;
    const free = `free-${randomUUID().slice(0, 8)}`;
    const projectId = await createProject(server, limited);
    const body = {
      scope: 'project',
      target_id: projectId,
      limit_type: 'monthly_traces',
      limit_value: 37,
    };
    const limit = await putScoped(server, body);
    expect(limit).toMatchObject({ scope: 'project', target_id: projectId, limit_value: 37 });

    const { sent, refused } = await sendConcurrently(server, [limited, free], 8, 10);

    // Overshoot 0: exactly the limit billed, every other run of the project refused by name.
    expect(await jsonTraces(server.baseUrl, 'project_name', limited)).toBe(37);
    expect(await jsonTraces(server.baseUrl, 'project_name', free)).toBe(80);
    const refusedIds = new Set(refused.flatMap((answer) => answer.refused_run_ids));
    expect(refusedIds.size).toBe(80 - 37);
    expect((sent.get(free) ?? []).some((id) => refusedIds.has(id))).toBe(false);
    for (const answer of refused) {
      expect(answer).toMatchObject({ scope: 'project', target_id: projectId, limit_value: 37 });
      expect(answer.detail).toContain(`The project ${projectId} of workspace`);
    }

    // A resend of billed and refused runs is never counted.
    const resend = recordingSdkClient(server.baseUrl, 'lsv2_demo_admin', workspace);
    const billedIds = (sent.get(limited) ?? []).filter((id) => !refusedIds.has(id));
    await resend.client.multipartIngestRuns({
      runCreates: [...billedIds.slice(0, 5), ...[...refusedIds].slice(0, 5)].map((id) =>
        sdkRootRun(id, limited),
      ),
    });
    expect(await jsonTraces(server.baseUrl, 'project_name', limited)).toBe(37);

    // Listed beside the workspace's own limits; deleted, the project takes traces again.
    const listed = await fetch(`${server.baseUrl}/api/v1/usage-limits`, {
      headers: { ...ADMIN, 'x-tenant-id': workspace },
    });
    expect(anyLimitListSchema.parse(await listed.json())).toContainEqual(limit);
    const removed = await fetch(`${server.baseUrl}/api/v1/usage-limits/${limit.id}`, {
      method: 'DELETE',
      headers: ADMIN,
    });
    expect(removed.status).toBe(200);
    await sendConcurrently(server, [limited], 1, 2);
    expect(await jsonTraces(server.baseUrl, 'project_name', limited)).toBe(39);
  });

  it('a user limit refuses exactly the runs of that user over it from 8 senders', async () => {
    if (!adminGrant) throw new Error('The demo admin key has an owner');
    const userId = demoKeyOwner(adminGrant).userId;
    const project = `user-${randomUUID().slice(0, 8)}`;
    const before = await jsonTraces(server.baseUrl, 'user_email', adminGrant.ownerEmail);
    const limit = await putScoped(server, {
      scope: 'user',
      target_id: userId,
      limit_type: 'monthly_traces',
      limit_value: before + 29,
    });

    const { refused } = await sendConcurrently(server, [project], 8, 6);

    expect(await jsonTraces(server.baseUrl, 'project_name', project)).toBe(29);
    expect(refused.flatMap((answer) => answer.refused_run_ids)).toHaveLength(48 - 29);
    expect(refused[0]).toMatchObject({ scope: 'user', target_id: userId });
    await fetch(`${server.baseUrl}/api/v1/usage-limits/${limit.id}`, {
      method: 'DELETE',
      headers: ADMIN,
    });
  });

  it('a spend limit holds the workspace to the traces its dollars buy at the plan prices', async () => {
    const before = (await limitStatus(server.baseUrl, workspace)).used;
    // At the default plan's $0.0005 a base trace, $0.01 more than the month so far buys 20.
    const dollars = Math.round((before * 0.0005 + 0.01) * 1e6) / 1e6;
    const limit = await putScoped(server, {
      limit_type: 'monthly_spend',
      limit_value: dollars,
      extended_share: 0,
    });
    expect(limit).toMatchObject({ scope: 'workspace', target_id: workspace, extended_share: 0 });
    expect(limit.derived).toEqual({
      monthly_traces: before + 20,
      monthly_longlived_traces: 0,
    });
    const project = `spend-${randomUUID().slice(0, 8)}`;
    const { refused } = await sendConcurrently(server, [project], 8, 4);
    expect(await jsonTraces(server.baseUrl, 'project_name', project)).toBe(20);
    expect(refused[0]).toMatchObject({ scope: 'workspace', spend_limit: dollars });
    await fetch(`${server.baseUrl}/api/v1/usage-limits/${limit.id}`, {
      method: 'DELETE',
      headers: ADMIN,
    });
  });

  it.each([
    [{ scope: 'team', target_id: randomUUID(), limit_type: 'monthly_traces', limit_value: 1 }],
    [{ scope: 'project', limit_type: 'monthly_traces', limit_value: 1 }],
    [{ limit_type: 'monthly_spend', limit_value: 10, extended_share: 1.5 }],
  ])('answers 422 to %j', async (body) => {
    const response = await putLimitResponse(server.baseUrl, workspace, body);
    expect(response.status).toBe(422);
  });
});

describe.skipIf(!HAVE_SCALE_OUT_SERVERS)(
  `project, user and spend limits on every backend (skipped when ${SKIP_REASON})`,
  () => {
    it('gives the same bodies on DuckDB and on ClickHouse + Postgres', () => {
      const duckdb = transcripts.get('duckdb');
      expect(duckdb).toContain('"scope": "project"');
      expect(transcripts.get('clickhouse')).toBe(duckdb);
    });
  },
);
