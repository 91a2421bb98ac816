import { Client, RunTree } from 'langsmith';
import { usageResponseSchema, type GroupBy } from '@contracts/usage/usage-schema';
import { parseCsv } from './csv-parse';
import { ADMIN, usageUrl } from './test-server';

/** Today in UTC as a whole-day range: ingested traces count at ingestion time, so they land here. */
export function todayRange(): { start: string; end: string } {
  const start = new Date(new Date().toISOString().slice(0, 10));
  const end = new Date(start.getTime() + 86_400_000);
  return { start: start.toISOString(), end: end.toISOString() };
}

/** A langsmith SDK client against a test server, batching as a real application does. */
export function sdkClient(baseUrl: string, apiKey: string, options: { workspaceId?: string } = {}) {
  return new Client({
    apiUrl: `${baseUrl}/api/v1`,
    apiKey,
    workspaceId: options.workspaceId,
    autoBatchTracing: true,
  });
}

/**
 * A root run create as the SDK carries it to `/runs/batch` and `/runs/multipart`, for a test that
 * resends runs of its own ids (a retry after a lost answer) or posts them without a RunTree.
 */
export function sdkRootRun(id: string, project: string) {
  const now = new Date();
  return {
    id,
    trace_id: id,
    dotted_order: `${now.toISOString().replace(/[-:.]/g, '').slice(0, 15)}000000Z${id}`,
    name: 'root',
    run_type: 'chain',
    inputs: {},
    start_time: now.getTime(),
    session_name: project,
  };
}

/**
 * Sends `roots` traces through the SDK's RunTree, each a chain with `children` child runs (an
 * LLM call and a tool), created and ended as LangChain does, and waits until all are delivered.
 */
export async function sendTraces(
  client: Client,
  projectName: string,
  roots: number,
  children = 2,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < roots; i += 1) {
    const root = new RunTree({
      name: `flow ${i}`,
      run_type: 'chain',
      project_name: projectName,
      client,
      inputs: { question: `question ${i}` },
    });
    await root.postRun();
    for (let k = 0; k < children; k += 1) {
      const child = root.createChild({
        name: `step ${k}`,
        run_type: k % 2 ? 'tool' : 'llm',
        inputs: { k },
      });
      await child.postRun();
      await child.end({ output: `done ${k}` });
      await child.patchRun();
    }
    await root.end({ answer: `answer ${i}` });
    await root.patchRun();
    ids.push(root.id);
  }
  await client.awaitPendingTraceBatches();
  return ids;
}

type Field = 'workspace_id' | 'project_name' | 'user_email' | 'api_key_short_key';
const GROUP_OF: Record<Field, GroupBy> = {
  workspace_id: 'workspace',
  project_name: 'project',
  user_email: 'user',
  api_key_short_key: 'api_key',
};
const CSV_COLUMN: Record<Field, string> = {
  workspace_id: 'Workspace ID',
  project_name: 'Project Name',
  user_email: 'User Email',
  api_key_short_key: 'API Key Short Key',
};

/** Traces today whose `field` equals `value`, as the JSON usage API reports them. */
export async function jsonTraces(baseUrl: string, field: Field, value: string): Promise<number> {
  const url = usageUrl(baseUrl, { ...todayRange(), groupBy: GROUP_OF[field] });
  const response = await fetch(url, { headers: ADMIN });
  const body = usageResponseSchema.parse(await response.json());
  return body.usage
    .filter((record) => (record.dimensions as Record<string, unknown>)[field] === value)
    .reduce((sum, record) => sum + record.traces, 0);
}

/** The same figure from the CSV export. */
export async function csvTraces(baseUrl: string, field: Field, value: string): Promise<number> {
  const url = usageUrl(baseUrl, { ...todayRange(), groupBy: GROUP_OF[field], export: true });
  const [header = [], ...rows] = parseCsv(await (await fetch(url, { headers: ADMIN })).text());
  const column = header.indexOf(CSV_COLUMN[field]);
  const traces = header.indexOf('Traces');
  return rows
    .filter((row) => row[column] === value)
    .reduce((sum, row) => sum + Number(row[traces]), 0);
}
