import type { Context } from 'hono';
import { DEFAULT_MULTITASK_STRATEGY, runInputSchema } from '@contracts/deployment';
import { jsonError } from '../http/json-error';
import { runConfigFor } from './assistant-run-config';
import type { DeploymentDeps } from './deployment-deps';
import type { RunRecord } from './store/run-store';
import { parseJsonBody, parseWith } from './wire/request';
import { type CreateRunBody, createRunBody, runKwargsOf } from './wire/run-request';
import { sseResponse } from './wire/sse';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The run's `context` merged over its assistant's, as the platform merges them. */
function contextOf(assistantContext: unknown, runContext: unknown): { context: unknown } | null {
  if (isObject(assistantContext) && isObject(runContext)) {
    return { context: { ...assistantContext, ...runContext } };
  }
  const context = runContext ?? assistantContext;
  return context === undefined || context === null ? null : { context };
}

export interface CreatedRun {
  run: RunRecord;
  body: CreateRunBody;
}

/**
 * Validates a run-creating request and creates the run: on the thread `threadId`, or, when it is
 * `null` (stateless `/runs/...`), on a new thread deleted after the run unless `on_completion` is
 * `keep`. A `Response` when refused (404, 409, 422), else the run.
 */
export async function createRunFromRequest(
  c: Context,
  deps: DeploymentDeps,
  threadId: string | null,
): Promise<Response | CreatedRun> {
  const { threads, assistants, manager } = deps;
  const body = await parseJsonBody(c, createRunBody);
  if (!body.ok) return jsonError(c, 422, body.detail);
  const { assistant_id, input, multitask_strategy, metadata, if_not_exists } = body.data;
  const assistant = assistants.resolve(assistant_id);
  if (!assistant) {
    // The official server's wording, which clients match on.
    const detail = `No assistant found for "${assistant_id}". Make sure the assistant ID is for a valid assistant or a valid graph ID.`;
    return jsonError(c, 404, detail);
  }
  // The demo graph reads `{messages}` (or a command); a loaded graph gets its input as sent.
  if (!deps.graphs.forGraphId(assistant.graph_id).foreign) {
    if (input === undefined && !body.data.command) {
      return jsonError(c, 422, 'input: required (or a command)');
    }
    const checked = input ? parseWith(runInputSchema, input) : null;
    if (checked && !checked.ok) return jsonError(c, 422, `input.${checked.detail}`);
  }
  const targetThread =
    threadId ?? threads.create({ graph_id: assistant.graph_id })?.thread_id ?? '';
  if (!threads.get(targetThread)) {
    if (if_not_exists !== 'create') return jsonError(c, 404, `Thread ${targetThread} not found`);
    threads.create({ graph_id: assistant.graph_id }, targetThread); // no-op if another won
  }
  // The assistant's config under the run's, as the platform merges them (recursion_limit, ...).
  const ids = { run_id: '', thread_id: targetThread };
  const config = runConfigFor(assistant, body.data.config, ids, c.req.raw.headers);
  // A run from a given checkpoint (`checkpoint` or `checkpoint_id` of the body) starts there.
  const checkpointId = body.data.checkpoint?.checkpoint_id ?? body.data.checkpoint_id;
  if (checkpointId) config.configurable = { ...config.configurable, checkpoint_id: checkpointId };
  const recursionLimit = typeof config.recursion_limit === 'number' ? config.recursion_limit : null;
  // As the platform: the thread records the graph and assistant of its latest run.
  threads.patchMetadata(targetThread, {
    graph_id: assistant.graph_id,
    assistant_id: assistant.assistant_id,
  });
  const result = await manager.create({
    threadId: targetThread,
    assistantId: assistant.assistant_id,
    input: input ?? null,
    metadata: metadata ?? {},
    strategy: multitask_strategy ?? DEFAULT_MULTITASK_STRATEGY,
    kwargs: {
      ...runKwargsOf(body.data, threadId === null, recursionLimit),
      config,
      ...(body.data.webhook && { webhook: new URL(body.data.webhook, c.req.url).href }),
      ...(contextOf(assistant.context, body.data.context) ?? {}),
    },
  });
  if ('conflict' in result) return jsonError(c, 409, result.conflict);
  c.header(
    'Content-Location',
    threadId === null
      ? `/runs/${result.run_id}`
      : `/threads/${result.thread_id}/runs/${result.run_id}`,
  );
  return { run: result, body: body.data };
}

/**
 * The SSE answer of a run: its events from index `from` (0 for the creator; after `Last-Event-ID`
 * on a resume) until it ends. `cancelOnDisconnect` interrupts the run when the client goes away.
 */
export function streamRunEvents(
  c: Context,
  deps: DeploymentDeps,
  run: RunRecord,
  options: { from: number; cancelOnDisconnect: boolean },
) {
  if (run.kwargs.stream_resumable) {
    // The SDK reconnects to `Location` with `Last-Event-ID` when a resumable stream drops.
    c.header('Location', `/threads/${run.thread_id}/runs/${run.run_id}/stream`);
  }
  return sseResponse(c, (signal) => deps.streams.read(run.run_id, options.from, signal), {
    onDisconnect: () => {
      if (!options.cancelOnDisconnect) return;
      const current = deps.runs.get(run.thread_id, run.run_id);
      if (current) void deps.manager.cancel(current, 'interrupt');
    },
  });
}
