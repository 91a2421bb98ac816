import { randomUUID } from 'node:crypto';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { strideForRange } from '@contracts/usage/stride';
import { DAY_MS } from '@contracts/usage/time';
import { llmAnswerRows } from '@server/usage/model/llm-answer';
import { landDeadClaims } from '@server/usage/store/scale-out/llm/llm-landing';
import type { UsageStoreWithFixtures } from '@server/usage/store/usage-store';
import {
  freshStore,
  HAVE_SCALE_OUT_SERVERS,
  openStoreWithFixtures,
  SKIP_REASON,
  type FreshStore,
} from './fresh-stores';

const START = Date.parse('2026-01-05T00:00:00Z');
const WORKSPACE = randomUUID();
const PROJECT = 'landing';
const USER = randomUUID();

/** A run `daysIn` days into the year, with `input` input tokens and a declared cost of $0.002. */
const run = (daysIn: number, input: number) => ({
  usage: {
    runId: randomUUID(),
    modelName: 'gpt-4o',
    modelProvider: 'openai',
    inputTokens: input,
    outputTokens: 10,
    totalTokens: input + 10,
    cacheReadTokens: 0,
    cacheCreationTokens: 0,
    reasoningTokens: 0,
    declaredCost: 0.002,
  },
  projectName: PROJECT,
  ingestedAt: new Date(START + daysIn * DAY_MS + 3_600_000),
});

describe.skipIf(!HAVE_SCALE_OUT_SERVERS)(
  `LLM runs landed in ClickHouse once (skipped when ${SKIP_REASON})`,
  () => {
    let fresh: FreshStore;
    let store: UsageStoreWithFixtures;
    let pool: pg.Pool;
    let clickhouse: ClickHouseClient;

    /** A year by user (30-day buckets, from `llm_periods`): per bucket, runs and input tokens. */
    const yearByUser = async () => {
      const grid = createBucketGrid(START, START + 360 * DAY_MS, strideForRange(0, 360 * DAY_MS));
      const answer = await store.llm.answer({
        grid,
        floorMs: null,
        workspaceIds: [WORKSPACE],
        groupBy: 'user',
      });
      return llmAnswerRows(answer).map((row) => [
        row.bucket,
        row.dimId,
        row.pricedRuns + row.unpricedRuns,
        row.inputTokens,
      ]);
    };

    /** Stores a run in Postgres as a replica that never landed it would have left it. */
    const storedOnly = async (
      daysIn: number,
      input: number,
      landing: { claim: string | null; secondsAgo: number },
    ) => {
      const { usage, ingestedAt } = run(daysIn, input);
      const projectId = (
        await pool.query<{ id: string }>('SELECT id::text FROM usage.projects WHERE name = $1', [
          Buffer.from(PROJECT),
        ])
      ).rows[0]?.id;
      // Columns named up to `cost_source` only, as a replica of an earlier version writes them.
      await pool.query(
        `INSERT INTO usage.llm_runs (run_id, workspace_id, project_id, user_id, api_key_id,
           ingested_ms, model_name, model_provider, input_tokens, output_tokens,
           cache_read_tokens, cache_creation_tokens, reasoning_tokens, total_tokens, cost_nanos,
           cost_source)
         VALUES ($1, $2, $3, $4, NULL, $5, NULL, NULL, $6, 10, 0, 0, 0, $7, 2000000, 'declared')`,
        [usage.runId, WORKSPACE, projectId, USER, ingestedAt.getTime(), input, input + 10],
      );
      await pool.query(
        `UPDATE usage.llm_runs SET landing_at = now() - make_interval(secs => $2)
           ${landing.claim === null ? '' : ', landing = $3'}
         WHERE run_id = $1`,
        [usage.runId, landing.secondsAgo, ...(landing.claim === null ? [] : [landing.claim])],
      );
      return usage.runId;
    };

    beforeAll(async () => {
      fresh = await freshStore('clickhouse', 'llm-landing');
      store = await openStoreWithFixtures(fresh.choice);
      await store.catalog.createWorkspace({
        id: WORKSPACE,
        displayName: 'Landing',
        createdAt: new Date(START),
      });
      await store.fixtures.putDimension({ groupBy: 'user', id: USER, label: 'lee@example.com' });
      if (fresh.choice.kind !== 'clickhouse') throw new Error('a scale-out store was expected');
      pool = new pg.Pool({ connectionString: fresh.choice.databaseUri, max: 2 });
      clickhouse = createClient(fresh.choice.clickhouse);
    }, 60_000);
    afterAll(async () => {
      await store?.close();
      await pool?.end();
      await clickhouse?.close();
      await fresh?.drop();
    });

    it('reads a run as soon as it is recorded, and once however often it is sent', async () => {
      const first = run(2, 100);
      await store.llm.record({
        workspaceId: WORKSPACE,
        userId: USER,
        apiKeyId: null,
        runs: [first],
      });
      await store.llm.record({
        workspaceId: WORKSPACE,
        userId: USER,
        apiKeyId: null,
        runs: [first],
      });
      expect(await yearByUser()).toEqual([[0, USER, 1, 100]]);
      expect(await landDeadClaims(pool, clickhouse, 0)).toBe(0);
    });

    it('lands runs stored before ClickHouse held LLM usage (the nil claim) once, after their lease', async () => {
      await storedOnly(40, 1000, { claim: null, secondsAgo: 0 });
      // Within its lease a landing may still be under way: nothing is taken.
      expect(await landDeadClaims(pool, clickhouse)).toBe(0);
      await storedOnly(41, 2000, { claim: null, secondsAgo: 60 });
      expect(await yearByUser()).toEqual([[0, USER, 1, 100]]);
      expect(await landDeadClaims(pool, clickhouse, 0)).toBe(2);
      expect(await landDeadClaims(pool, clickhouse, 0)).toBe(0);
      expect(await yearByUser()).toEqual([
        [0, USER, 1, 100],
        [1, USER, 2, 3000],
      ]);
    });

    it('does not send again a dead landing whose insert did reach ClickHouse', async () => {
      const claim = randomUUID();
      const landed = await storedOnly(200, 7, { claim, secondsAgo: 60 });
      const lost = await storedOnly(201, 5, { claim, secondsAgo: 60 });
      // Its replica inserted one of them, then died before confirming.
      const day = new Date(START + 200 * DAY_MS).toISOString().slice(0, 10);
      const projectId = (
        await pool.query<{ id: string }>(
          'SELECT project_id::text AS id FROM usage.llm_runs WHERE run_id = $1',
          [landed],
        )
      ).rows[0]?.id;
      await clickhouse.insert({
        table: 'llm_runs',
        format: 'JSONEachRow',
        values: [
          {
            run_id: landed,
            workspace_id: WORKSPACE,
            project_id: projectId,
            user_id: USER,
            api_key_id: null,
            ingested_ms: START + 200 * DAY_MS + 3_600_000,
            day,
            input_tokens: 7,
            output_tokens: 10,
            cache_read_tokens: 0,
            cache_creation_tokens: 0,
            total_tokens: 17,
            cost_nanos: 2_000_000,
            priced: 1,
          },
        ],
      });
      expect(await landDeadClaims(pool, clickhouse)).toBe(1);
      const bucket = Math.floor(200 / 30);
      expect(await yearByUser()).toContainEqual([bucket, USER, 2, 12]);
      const left = await pool.query(
        'SELECT count(*)::int AS n FROM usage.llm_runs WHERE landing IS NOT NULL AND run_id = ANY($1::uuid[])',
        [[landed, lost]],
      );
      expect(left.rows[0]).toEqual({ n: 0 });
    });
  },
);
