import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { limitExceededSchema } from '@contracts/usage/usage-limits';
import { jsonTraces } from './ingest-helpers';
import { LIMIT_BACKENDS, useLimitServer, type LimitServer } from './limit-backends';
import { limitStatus, putLimit } from './limit-helpers';
import { TEST_WORKSPACE_IDS } from './test-server';

const workspace = TEST_WORKSPACE_IDS[2] ?? '';

/** One `/runs/batch` request of `size` new root runs (and a child each, not billed). */
async function sendBatch(server: LimitServer, project: string, size: number) {
  const post = Array.from({ length: size }, () => {
    const id = randomUUID();
    return [
      { id, trace_id: id, name: 'root', run_type: 'chain', session_name: project },
      {
        id: randomUUID(),
        trace_id: id,
        parent_run_id: id,
        name: 'llm',
        run_type: 'llm',
        session_name: project,
      },
    ];
  }).flat();
  const response = await fetch(`${server.baseUrl}/api/v1/runs/batch`, {
    method: 'POST',
    headers: {
      'x-api-key': 'lsv2_demo_admin',
      'x-tenant-id': workspace,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ post }),
  });
  const body: unknown = await response.json();
  if (response.status === 429) return limitExceededSchema.parse(body).traces_billed;
  expect(response.status).toBe(202);
  return (body as { traces_billed: number }).traces_billed;
}

describe.each(LIMIT_BACKENDS)('usage limits under concurrency ($name)', (backend) => {
  const server = useLimitServer(backend, 'limits_race');

  it.each([
    [6, 25, 7],
    [4, 40, 1],
  ])(
    '%i senders of %i batches each (%i roots a batch) across the limit: overshoot measured',
    async (senders, batches, size) => {
      const project = `race-${randomUUID().slice(0, 8)}`;
      const before = await limitStatus(server.baseUrl, workspace);
      const headroom = Math.floor((senders * batches * size) / 2);
      await putLimit(server.baseUrl, workspace, before.used + headroom);

      const acknowledged = await Promise.all(
        Array.from({ length: senders }, async () => {
          let billed = 0;
          for (let i = 0; i < batches; i += 1) billed += await sendBatch(server, project, size);
          return billed;
        }),
      );

      const billed = await jsonTraces(server.baseUrl, 'project_name', project);
      const overshoot = billed - headroom;
      console.info(
        `${backend.kind}: ${senders} senders x ${batches} batches x ${size} roots, limit +${headroom}: ` +
          `billed ${billed}, overshoot ${overshoot}`,
      );
      // What the senders were told they billed is what the usage API counts: nothing dropped.
      expect(acknowledged.reduce((sum, n) => sum + n, 0)).toBe(billed);
      // DuckDB's one writer decides every group in order; on ClickHouse each claim decides under
      // its workspace's month counter lock: exact, whatever the senders.
      expect(overshoot).toBe(0);
      expect((await limitStatus(server.baseUrl, workspace)).used).toBe(before.used + headroom);
    },
  );
});
