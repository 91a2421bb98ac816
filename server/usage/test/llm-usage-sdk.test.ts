import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BaseMessage } from '@langchain/core/messages';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { ChatResult } from '@langchain/core/outputs';
import { LangChainTracer } from '@langchain/core/tracers/tracer_langchain';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { traceable } from 'langsmith/traceable';
import { llmUsageResponseSchema, type LlmUsageRecord } from '@contracts/usage/llm-usage-schema';
import { modelPriceListSchema } from '@contracts/usage/model-price-map';
import { parseCsv } from './csv-parse';
import { freshStore, HAVE_SCALE_OUT_SERVERS, type FreshStore } from './contract/fresh-stores';
import { sdkClient, todayRange } from './ingest-helpers';
import {
  ADMIN,
  startTestServer,
  TEST_WORKSPACE_IDS,
  USAGE_PATH,
  type TestServer,
} from './test-server';

const WORKSPACE = TEST_WORKSPACE_IDS[0] ?? '';

/** A chat model that reports usage and names its model, as provider integrations do. */
class UsageChatModel extends FakeListChatModel {
  constructor(
    private readonly modelName: string,
    private readonly usage: { input: number; output: number; cacheRead?: number },
  ) {
    super({ responses: ['ok'] });
  }

  override getLsParams(options: this['ParsedCallOptions']) {
    return { ...super.getLsParams(options), ls_provider: 'fake', ls_model_name: this.modelName };
  }

  override async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const result = await super._generate(messages, options, runManager);
    const [generation] = result.generations;
    if (generation && 'usage_metadata' in generation.message) {
      const { input, output, cacheRead = 0 } = this.usage;
      generation.message.usage_metadata = {
        input_tokens: input,
        output_tokens: output,
        total_tokens: input + output,
        input_token_details: { cache_read: cacheRead },
      };
    }
    return result;
  }
}

async function llmUsage(
  baseUrl: string,
  groupBy: string,
  format: 'json' | 'csv' = 'json',
): Promise<LlmUsageRecord[] | string[][]> {
  const { start, end } = todayRange();
  const search = new URLSearchParams({
    start_time: start,
    end_time: end,
    workspace_ids: WORKSPACE,
    kind: 'llm_usage',
    group_by: groupBy,
  });
  const path = `${USAGE_PATH}${format === 'csv' ? '/export' : ''}`;
  const response = await fetch(`${baseUrl}${path}?${search}`, { headers: ADMIN });
  expect(response.status).toBe(200);
  if (format === 'csv') return parseCsv(await response.text());
  return llmUsageResponseSchema.parse(await response.json()).usage;
}

const jsonRecords = async (baseUrl: string, groupBy: string) =>
  (await llmUsage(baseUrl, groupBy)) as LlmUsageRecord[];

/** The model's records of today, summed (one bucket per stride, several for short strides). */
function modelTotals(records: LlmUsageRecord[], model: string) {
  const mine = records.filter((record) => record.dimensions.model_name === model);
  const known = mine.filter((record) => record.cost !== null);
  return {
    input: mine.reduce((sum, record) => sum + record.input_tokens, 0),
    output: mine.reduce((sum, record) => sum + record.output_tokens, 0),
    cacheRead: mine.reduce((sum, record) => sum + record.cache_read_tokens, 0),
    total: mine.reduce((sum, record) => sum + record.total_tokens, 0),
    cost: known.length === 0 ? null : known.reduce((sum, record) => sum + (record.cost ?? 0), 0),
    unpriced: mine.reduce((sum, record) => sum + record.unpriced_runs, 0),
  };
}

const backends = HAVE_SCALE_OUT_SERVERS
  ? (['duckdb', 'clickhouse'] as const)
  : (['duckdb'] as const);

describe.each(backends)('LLM usage through the SDKs (%s)', (kind) => {
  let store: FreshStore;
  let server: TestServer;
  beforeAll(async () => {
    store = await freshStore(kind, 'llm-sdk');
    server = await startTestServer(store.env);
  });
  afterAll(async () => {
    await server.close();
    await store.drop();
  });

  it('counts tokens per model and project as sent through LangChain, once across resends', async () => {
    const project = `lc-${randomUUID().slice(0, 8)}`;
    const model = `unpriced-${randomUUID().slice(0, 8)}`;
    const client = sdkClient(server.baseUrl, 'lsv2_demo_admin', { workspaceId: WORKSPACE });
    const tracer = new LangChainTracer({ projectName: project, client });
    const chat = new UsageChatModel(model, { input: 120, output: 30, cacheRead: 100 });
    await chat.invoke('hello', { callbacks: [tracer] });
    await chat.invoke('again', { callbacks: [tracer] });
    await client.awaitPendingTraceBatches();

    const totals = modelTotals(await jsonRecords(server.baseUrl, 'model'), model);
    // A model without a price: its runs are unpriced and its cost unknown, never 0.
    expect(totals).toEqual({
      input: 240,
      output: 60,
      cacheRead: 200,
      total: 300,
      cost: null,
      unpriced: 2,
    });
    const byProject = (await jsonRecords(server.baseUrl, 'project')).filter(
      (record) => record.dimensions.project_name === project,
    );
    expect(byProject.reduce((sum, record) => sum + record.input_tokens, 0)).toBe(240);
  });

  it('uses a declared cost as sent, prices known models, and counts a resent run once', async () => {
    const project = `ls-${randomUUID().slice(0, 8)}`;
    const client = sdkClient(server.baseUrl, 'lsv2_demo_admin', { workspaceId: WORKSPACE });
    const declared = `declared-${randomUUID().slice(0, 8)}`;
    const call = (model: string, usage: Record<string, number>) =>
      traceable(async (_prompt: string) => ({ text: 'ok', usage_metadata: usage }), {
        name: 'llm',
        run_type: 'llm',
        client,
        project_name: project,
        metadata: { ls_provider: 'openai', ls_model_name: model },
        tracingEnabled: true,
      });
    await call(declared, {
      input_tokens: 7,
      output_tokens: 2,
      total_tokens: 9,
      total_cost: 0.0125,
    })('x');
    // gpt-4o-mini at its list price: $0.15 per million input tokens, $0.60 per million output.
    await call('gpt-4o-mini', { input_tokens: 1000, output_tokens: 500, total_tokens: 1500 })('y');
    await client.awaitPendingTraceBatches();

    const records = await jsonRecords(server.baseUrl, 'model');
    expect(modelTotals(records, declared)).toMatchObject({ total: 9, cost: 0.0125, unpriced: 0 });
    expect(modelTotals(records, 'gpt-4o-mini').cost).toBeCloseTo(0.00045, 12);

    // The same run again (a retry after a lost answer): nothing changes.
    const runId = randomUUID();
    const run = {
      id: runId,
      trace_id: runId,
      name: 'llm',
      run_type: 'llm',
      session_name: project,
      start_time: Date.now(),
      outputs: { usage_metadata: { input_tokens: 5, output_tokens: 5, total_tokens: 10 } },
      extra: { metadata: { ls_model_name: declared, ls_provider: 'openai' } },
    };
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`${server.baseUrl}/api/v1/runs/batch`, {
        method: 'POST',
        headers: { ...ADMIN, 'content-type': 'application/json', 'x-tenant-id': WORKSPACE },
        body: JSON.stringify({ post: [run] }),
      });
      expect(response.status).toBe(202);
    }
    const after = modelTotals(await jsonRecords(server.baseUrl, 'model'), declared);
    expect(after).toMatchObject({ total: 19, cost: 0.0125, unpriced: 1 });
  });

  it('prices runs ingested after a price map change, and only admins change it', async () => {
    const model = `custom-${randomUUID().slice(0, 8)}`;
    const project = `pm-${randomUUID().slice(0, 8)}`;
    const client = sdkClient(server.baseUrl, 'lsv2_demo_admin', { workspaceId: WORKSPACE });
    const chat = new UsageChatModel(model, { input: 1_000_000, output: 0 });
    const tracer = new LangChainTracer({ projectName: project, client });
    await chat.invoke('before', { callbacks: [tracer] });
    await client.awaitPendingTraceBatches();

    const entry = {
      name: model,
      match_pattern: `^${model}$`,
      prompt_cost: 0.000002,
      completion_cost: 0.000004,
    };
    const post = (key: string) =>
      fetch(`${server.baseUrl}/api/v1/model-price-map`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'x-tenant-id': WORKSPACE },
        body: JSON.stringify(entry),
      });
    expect((await post('lsv2_demo_limited')).status).toBe(403);
    const created = await post('lsv2_demo_admin');
    expect(created.status).toBe(200);
    expect((await post('lsv2_demo_admin')).status).toBe(409);
    const list = modelPriceListSchema.parse(
      await (
        await fetch(`${server.baseUrl}/api/v1/model-price-map`, {
          headers: { ...ADMIN, 'x-tenant-id': WORKSPACE },
        })
      ).json(),
    );
    expect(
      list.filter((price) => price.tenant_id === WORKSPACE).map((price) => price.name),
    ).toEqual([model]);

    await chat.invoke('after', { callbacks: [tracer] });
    await client.awaitPendingTraceBatches();
    // The run before the change stays unpriced; the one after costs 1M input tokens at $2/M.
    expect(modelTotals(await jsonRecords(server.baseUrl, 'model'), model)).toMatchObject({
      input: 2_000_000,
      cost: 2,
      unpriced: 1,
    });
  });

  it.each(['workspace', 'project', 'user', 'api_key', 'model'])(
    'exports the same records as the JSON answer by %s',
    async (groupBy) => {
      const records = await jsonRecords(server.baseUrl, groupBy);
      const [header = [], ...rows] = (await llmUsage(server.baseUrl, groupBy, 'csv')) as string[][];
      expect(records.length).toBeGreaterThan(0);
      expect(rows).toHaveLength(records.length);
      const column = (name: string) => header.indexOf(name);
      rows.forEach((row, i) => {
        const record = records[i];
        expect(row[column('Time Bucket Start')]).toBe(record?.time_bucket);
        expect(Number(row[column('Input Tokens')])).toBe(record?.input_tokens);
        expect(Number(row[column('Total Tokens')])).toBe(record?.total_tokens);
        expect(Number(row[column('Unpriced Runs')])).toBe(record?.unpriced_runs);
        const cost = row[column('Cost (USD)')];
        expect(cost === '' ? null : Number(cost)).toBe(record?.cost);
      });
    },
  );
});
