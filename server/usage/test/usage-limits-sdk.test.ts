import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { limitExceededSchema, usageLimitListSchema } from '@contracts/usage/usage-limits';
import { jsonTraces, sdkRootRun, sendTraces } from './ingest-helpers';
import { LIMIT_BACKENDS, useLimitServer } from './limit-backends';
import {
  limitStatus,
  putLimit,
  putLimitResponse,
  recordingSdkClient,
  type RecordedAnswer,
} from './limit-helpers';
import { ADMIN, TEST_WORKSPACE_IDS } from './test-server';

const workspace = TEST_WORKSPACE_IDS[0] ?? '';
// The SDK reports a failed upload with console.warn (it never throws from a traced function).
const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
beforeEach(() => warn.mockClear());

describe.each(LIMIT_BACKENDS)('usage limits through the langsmith SDK ($name)', (backend) => {
  const server = useLimitServer(backend, 'limits_sdk');

  /** Sends `count` single-run traces one by one, each delivered before the next starts. */
  async function oneByOne(count: number, project: string) {
    const { client, answers } = recordingSdkClient(server.baseUrl, 'lsv2_demo_admin', workspace);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) ids.push(...(await sendTraces(client, project, 1, 0)));
    return { ids, answers };
  }

  const refusedIn = (answers: RecordedAnswer[]) =>
    answers
      .filter((answer) => answer.status === 429)
      .flatMap((answer) => limitExceededSchema.parse(answer.body).refused_run_ids);

  it('bills exactly up to the limit, refuses the rest with 429, bills resends 0, lets a raise in', async () => {
    const project = `limit-${randomUUID().slice(0, 8)}`;
    const before = await limitStatus(server.baseUrl, workspace);
    const limit = await putLimit(server.baseUrl, workspace, before.used + 3);
    expect(limit).toMatchObject({ tenant_id: workspace, limit_type: 'monthly_traces' });

    const { ids, answers } = await oneByOne(10, project);

    expect(await jsonTraces(server.baseUrl, 'project_name', project)).toBe(3);
    expect((await limitStatus(server.baseUrl, workspace)).used).toBe(before.used + 3);
    const refused = new Set(refusedIn(answers));
    // What the application's log shows: the SDK's warning quotes the 429 and its detail.
    expect(warn.mock.calls.flat().join('\n')).toMatch(
      /429.*reached its monthly_traces usage limit/,
    );
    expect(ids.slice(0, 3).filter((id) => refused.has(id))).toEqual([]);
    expect(ids.slice(3).every((id) => refused.has(id))).toBe(true);
    const refusal = answers.find((answer) => answer.status === 429);
    const body = limitExceededSchema.parse(refusal?.body);
    expect(body.detail).toMatch(
      new RegExp(
        `Workspace .+ \\(${workspace}\\) reached its monthly_traces usage limit of ${before.used + 3} traces`,
      ),
    );
    expect(body.detail).toContain('resets at');
    expect(Date.parse(body.resets_at)).toBe(Date.parse(refusal?.retryAfter ?? ''));
    const status = await limitStatus(server.baseUrl, workspace);
    expect(status.refused).toBeGreaterThanOrEqual(7);
    expect(status.reached_at).not.toBeNull();
    // What the playground's note reads: refusals of this project in the flow's window.
    const window = new URLSearchParams({
      project,
      start_time: new Date(Date.now() - 600_000).toISOString(),
      end_time: new Date(Date.now() + 60_000).toISOString(),
    });
    const refusals = await fetch(`${server.baseUrl}/api/v1/usage-limits/refusals?${window}`, {
      headers: ADMIN,
    });
    expect(await refusals.json()).toMatchObject({
      refused: refused.size,
      workspace_ids: [workspace],
    });

    // The three billed traces again, through a fresh client (as a retry after a lost answer).
    const resend = recordingSdkClient(server.baseUrl, 'lsv2_demo_admin', workspace);
    await resend.client.multipartIngestRuns({
      runCreates: ids.slice(0, 3).map((id) => sdkRootRun(id, project)),
    });
    expect(resend.answers.map((answer) => answer.status)).toEqual([202]);
    expect(await jsonTraces(server.baseUrl, 'project_name', project)).toBe(3);

    // Raised by two: the next two new traces are billed at once, the third is refused.
    await putLimit(server.baseUrl, workspace, before.used + 5);
    const after = await oneByOne(3, project);
    expect(after.answers.slice(0, 2).every((answer) => answer.status === 202)).toBe(true);
    expect(refusedIn(after.answers)).toEqual([after.ids[2]]);
    expect(await jsonTraces(server.baseUrl, 'project_name', project)).toBe(5);
  });

  it.each([
    [
      'the read-only key',
      'lsv2_demo_limited',
      403,
      'This API key lacks the usage-limits:manage permission.',
    ],
    [
      'a key without organization:read',
      'lsv2_demo_noperm',
      403,
      'This API key lacks the organization:read permission.',
    ],
    ['an unknown key', 'lsv2_nope', 401, 'Invalid API key.'],
  ])('refuses a PUT by %s', async (_label, apiKey, status, detail) => {
    const response = await putLimitResponse(
      server.baseUrl,
      workspace,
      { limit_type: 'monthly_traces', limit_value: 1 },
      apiKey,
    );
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ detail });
  });

  it.each([
    [
      { limit_type: 'monthly_traces', limit_value: -1 },
      ['body', 'limit_value'],
      'greater than or equal to 0',
    ],
    [{ limit_type: 'monthly_traces', limit_value: 2.5 }, ['body', 'limit_value'], 'valid integer'],
    [{ limit_type: 'daily_traces', limit_value: 5 }, ['body', 'limit_type'], "'monthly_traces'"],
    [{ limit_type: 'monthly_traces' }, ['body', 'limit_value'], 'Field required'],
    ['{"limit_type": ', ['body'], 'JSON decode error'],
  ])('answers 422 to %j', async (body, loc, message) => {
    const response = await putLimitResponse(server.baseUrl, workspace, body);
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: unknown[]; msg: string }[] };
    expect(detail).toEqual([expect.objectContaining({ loc })]);
    expect(detail[0]?.msg).toContain(message);
  });

  it('keeps limits and enforces them after a restart', async () => {
    const other = TEST_WORKSPACE_IDS[1] ?? '';
    const before = await limitStatus(server.baseUrl, other);
    const stored = await putLimit(server.baseUrl, other, before.used);
    await server.restart();

    const response = await fetch(`${server.baseUrl}/api/v1/usage-limits`, {
      headers: { ...ADMIN, 'x-tenant-id': other },
    });
    expect(usageLimitListSchema.parse(await response.json())).toEqual([stored]);
    const project = `restart-${randomUUID().slice(0, 8)}`;
    const { client, answers } = recordingSdkClient(server.baseUrl, 'lsv2_demo_admin', other);
    const id = randomUUID();
    await client.multipartIngestRuns({ runCreates: [sdkRootRun(id, project)] });
    expect(answers.map((answer) => answer.status)).toEqual([429]);
    expect(refusedIn(answers)).toEqual([id]);
    expect(await jsonTraces(server.baseUrl, 'project_name', project)).toBe(0);
  });
});
