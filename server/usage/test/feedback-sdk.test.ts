import { randomUUID } from 'node:crypto';
import { Client } from 'langsmith';
import { describe, expect, it } from 'vitest';
import { billingUsageSchema } from '@contracts/usage/billing-schema';
import type { UsageMetric } from '@contracts/usage/pricing';
import { sdkClient, sendTraces, todayRange } from './ingest-helpers';
import { LIMIT_BACKENDS, useLimitServer } from './limit-backends';
import { ADMIN, TEST_WORKSPACE_IDS } from './test-server';

const workspace = TEST_WORKSPACE_IDS[0] ?? '';

/** Today's value of `metric` in the test workspace, as the billing usage endpoint answers it. */
async function today(baseUrl: string, metric: UsageMetric): Promise<number> {
  const { start, end } = todayRange();
  const search = new URLSearchParams({ starting_on: start, ending_before: end });
  const response = await fetch(`${baseUrl}/api/v1/orgs/current/billing/usage?${search}`, {
    headers: ADMIN,
  });
  expect(response.status).toBe(200);
  const usage = billingUsageSchema.parse(await response.json());
  return usage.find((entry) => entry.metric === metric)?.groups[workspace] ?? 0;
}

/** An SDK client that notes the path of each request it sends, and whether it carried feedback. */
function recordingClient(baseUrl: string) {
  const sent: { path: string; feedbackParts: boolean }[] = [];
  const client = new Client({
    apiUrl: `${baseUrl}/api/v1`,
    apiKey: ADMIN['x-api-key'],
    workspaceId: workspace,
    autoBatchTracing: true,
    fetchImplementation: async (input, init) => {
      // Read from a copy: the request itself goes out untouched, whatever its body's type.
      const request = new Request(input, { ...init, duplex: 'half' } as RequestInit);
      const body = await request.clone().text();
      sent.push({
        path: new URL(request.url).pathname,
        feedbackParts: body.includes('name="feedback.'),
      });
      return fetch(request);
    },
  });
  return { client, sent };
}

describe.each(LIMIT_BACKENDS)('feedback through the langsmith SDK ($name)', (backend) => {
  const server = useLimitServer(backend, 'feedback_sdk');

  it('upgrades exactly the traces createFeedback names, once, by both of its paths', async () => {
    const project = `feedback-${randomUUID().slice(0, 8)}`;
    const { client, sent } = recordingClient(server.baseUrl);
    const [viaMultipart = '', viaPost = '', optedOut = '', untouched = ''] = await sendTraces(
      client,
      project,
      4,
      1,
    );
    expect(untouched).not.toBe('');
    const before = await today(server.baseUrl, 'extended_upgrades');

    // With its trace known, the SDK batches feedback as a `feedback.<id>` multipart part.
    const batched = await client.createFeedback(viaMultipart, 'correctness', {
      score: 1,
      traceId: viaMultipart,
    });
    await client.awaitPendingTraceBatches();
    expect(sent.filter((request) => request.feedbackParts).map((request) => request.path)).toEqual([
      '/api/v1/runs/multipart',
    ]);
    // Without it, or opting out, it posts to /feedback.
    const posted = await client.createFeedback(viaPost, 'helpfulness', { score: 0 });
    await client.createFeedback(viaPost, 'helpfulness', { score: 1 });
    await client.createFeedback(optedOut, 'note', {
      comment: 'keep me short',
      extendTraceRetention: false,
    });
    // A retry of the same feedback (same id) changes nothing.
    await client.createFeedback(viaPost, 'helpfulness', { score: 0, feedbackId: posted.id });

    expect(await today(server.baseUrl, 'extended_upgrades')).toBe(before + 2);
    expect(sent.filter((request) => request.path === '/api/v1/feedback')).toHaveLength(4);

    expect(await client.readFeedback(batched.id)).toMatchObject({
      run_id: viaMultipart,
      trace_id: viaMultipart,
      key: 'correctness',
    });
    const read = await client.readFeedback(posted.id);
    expect(read).toMatchObject({ id: posted.id, run_id: viaPost, key: 'helpfulness', score: 0 });
    const listed = [];
    for await (const each of client.listFeedback({ runIds: [viaPost] })) listed.push(each);
    expect(listed).toHaveLength(2);
    await client.deleteFeedback(posted.id);
    await expect(client.readFeedback(posted.id)).rejects.toThrow();
    // The upgrade was billed when it happened: deleting its feedback does not undo it.
    expect(await today(server.baseUrl, 'extended_upgrades')).toBe(before + 2);
  });

  it('counts a trace ingested into an extended project as upgraded from the start, once', async () => {
    const project = `extended-${randomUUID().slice(0, 8)}`;
    const created = await fetch(`${server.baseUrl}/api/v1/sessions`, {
      method: 'POST',
      headers: { ...ADMIN, 'x-tenant-id': workspace, 'content-type': 'application/json' },
      body: JSON.stringify({ name: project, trace_tier: 'longlived' }),
    });
    expect(created.status).toBe(200);
    const before = {
      upgrades: await today(server.baseUrl, 'extended_upgrades'),
      extended: await today(server.baseUrl, 'extended_traces'),
      base: await today(server.baseUrl, 'base_traces'),
    };
    const client = sdkClient(server.baseUrl, 'lsv2_demo_admin', { workspaceId: workspace });
    const [trace = ''] = await sendTraces(client, project, 1, 0);
    await client.createFeedback(trace, 'correctness', { score: 1 });

    expect({
      upgrades: await today(server.baseUrl, 'extended_upgrades'),
      extended: await today(server.baseUrl, 'extended_traces'),
      base: await today(server.baseUrl, 'base_traces'),
    }).toEqual({
      upgrades: before.upgrades + 1,
      extended: before.extended + 1,
      base: before.base + 1,
    });
  });
});
