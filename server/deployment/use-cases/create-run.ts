import { randomUUID } from 'node:crypto';
import { DEFAULT_MULTITASK_STRATEGY, runInputSchema } from '@contracts/deployment';
import type { RunOwner } from '../auth/auth-types';
import { runConfigFor } from './assistant-run-config';
import type { DeploymentDeps } from './deployment-deps';
import type { NewRunRequest } from '../runs/run-manager';
import type { RunKwargs, RunRecord } from '../store/records';
import { isRecord } from '../wire/json-contains';
import { parseWith } from '../wire/request';
import { type CreateRunBody, runKwargsOf } from '../wire/run-request';
import { webhookRefusal } from '../webhooks/webhook-policy';

/** The run's `context` merged over its assistant's, as the platform merges them. */
function contextOf(assistantContext: unknown, runContext: unknown): { context: unknown } | null {
  if (isRecord(assistantContext) && isRecord(runContext)) {
    return { context: { ...assistantContext, ...runContext } };
  }
  const context = runContext ?? assistantContext;
  return context === undefined || context === null ? null : { context };
}

/** The official server's wording for an unknown assistant of a run, which clients match on. */
export const noAssistantFor = (assistantId: string) =>
  `No assistant found for "${assistantId}". Make sure the assistant ID is for a valid assistant or a valid graph ID.`;

export type RunCreation = { run: RunRecord } | { refused: 404 | 409 | 422; detail: string };

/** Kwargs the caller sets itself (protocol v2 marks its runs), and its hook under the lock. */
interface OwnRunOptions extends RunOwner {
  kwargs?: Partial<RunKwargs>;
  onCreated?: (run: RunRecord, graphId: string) => Promise<void>;
}

/**
 * Creates a run from a validated body (a request's, or a cron's payload): on `threadId`, or on a
 * new thread when it is `null`. A relative `webhook` is kept as a path of this API (see
 * deliver-webhook); `baseUrl` is not read. The request's `headers` (none for a cron) give the
 * run's configurable headers.
 */
export async function createRun(
  deps: DeploymentDeps,
  body: CreateRunBody,
  threadId: string | null,
  baseUrl: string,
  headers?: Headers,
  own: OwnRunOptions = {},
): Promise<RunCreation> {
  const { manager } = deps;
  const refusedWebhook = webhookRefusal(body.webhook, deps.webhooks);
  if (refusedWebhook) return { refused: 422, detail: refusedWebhook };
  // A stateless run's thread is made with the run: its id is chosen here, so that the thread's
  // lock is taken while the reads and checks run (`manager.create`).
  const targetThread = threadId ?? randomUUID();
  const result = await manager.create(targetThread, () =>
    prepareRun(deps, body, { threadId, targetThread, headers, own }),
  );
  if ('refused' in result) return result;
  if ('conflict' in result) return { refused: 409, detail: result.conflict };
  return { run: result };
}

type Refused = Extract<RunCreation, { refused: unknown }>;

/**
 * The reads and checks before a run is created, and the request they give: the assistant and the
 * named thread (read together), the input, the thread made or marked with its graph.
 */
async function prepareRun(
  deps: DeploymentDeps,
  body: CreateRunBody,
  where: {
    threadId: string | null;
    targetThread: string;
    headers: Headers | undefined;
    own: OwnRunOptions;
  },
): Promise<NewRunRequest | Refused> {
  const { threads, assistants } = deps;
  const { threadId, targetThread, headers, own } = where;
  const { onCreated } = own;
  const { assistant_id, input, multitask_strategy, metadata, if_not_exists } = body;
  // The thread named in the path is read alongside the assistant: neither read needs the other.
  const [assistant, named] = await Promise.all([
    assistants.resolve(assistant_id),
    threadId === null ? undefined : threads.get(threadId),
  ]);
  if (!assistant) {
    return { refused: 404, detail: noAssistantFor(assistant_id) };
  }
  // The demo graph reads `{messages}` (or a command); a loaded graph gets its input as sent.
  if (!deps.graphs.forGraphId(assistant.graph_id).foreign) {
    if (input === undefined && !body.command) {
      return { refused: 422, detail: 'input: required (or a command)' };
    }
    const checked = input ? parseWith(runInputSchema, input) : null;
    if (checked && !checked.ok) return { refused: 422, detail: `input.${checked.detail}` };
  }
  // A stateless run's thread is made here: the record its create returns is the thread.
  const thread =
    threadId === null
      ? await threads.create({ ...own.stamp, graph_id: assistant.graph_id }, targetThread)
      : named;
  if (!thread) {
    if (if_not_exists !== 'create') {
      return { refused: 404, detail: `Thread ${targetThread} not found` };
    }
    // A no-op if another request won.
    await threads.create({ ...own.stamp, graph_id: assistant.graph_id }, targetThread);
  }
  // The assistant's config under the run's, as the platform merges them (recursion_limit, ...).
  const ids = { run_id: '', thread_id: targetThread };
  const config = runConfigFor(assistant, body.config, ids, headers);
  // A run from a given checkpoint (`checkpoint` or `checkpoint_id` of the body) starts there.
  const checkpointId = body.checkpoint?.checkpoint_id ?? body.checkpoint_id;
  if (checkpointId) config.configurable = { ...config.configurable, checkpoint_id: checkpointId };
  if (own.user?.is_authenticated) {
    config.configurable = {
      ...config.configurable,
      langgraph_auth_user: own.user,
      langgraph_auth_user_id: own.user.identity,
      langgraph_auth_permissions: own.user.permissions,
    };
  }
  const recursionLimit = typeof config.recursion_limit === 'number' ? config.recursion_limit : null;
  // As the platform: the thread records the graph and assistant of its latest run (a thread
  // that already names them, as on every run after its first, is left as it is).
  if (
    thread?.metadata.graph_id !== assistant.graph_id ||
    thread.metadata.assistant_id !== assistant.assistant_id
  ) {
    const patch = { graph_id: assistant.graph_id, assistant_id: assistant.assistant_id };
    await threads.patchMetadata(targetThread, patch, thread);
  }
  return {
    assistantId: assistant.assistant_id,
    input: input ?? null,
    metadata: { ...metadata, ...own.stamp },
    strategy: multitask_strategy ?? DEFAULT_MULTITASK_STRATEGY,
    kwargs: {
      ...runKwargsOf(body, threadId === null, recursionLimit),
      config,
      ...(contextOf(assistant.context, body.context) ?? {}),
      ...own.kwargs,
    },
    ...(onCreated && { onCreated: (run: RunRecord) => onCreated(run, assistant.graph_id) }),
  };
}
