import type { RunnableConfig } from '@langchain/core/runnables';
import type { StateSnapshot } from '@langchain/langgraph';
import { type Context, Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import type { ServedGraph } from '../graph/graph-registry';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import type { ThreadRecord } from '../store/records';
import { jsonContains } from '../wire/json-contains';
import { parseJsonBody, parseWith } from '../wire/request';
import { serializeState } from '../wire/serialize';
import {
  type CheckpointRef,
  type HistoryBody,
  historyBody,
  historyQuery,
  stateAtCheckpointBody,
  updateStateBody,
} from '../wire/thread-requests';

const isTrue = (flag: string | undefined) => flag === 'true' || flag === '1';

/** The checkpointer config of a thread, at a checkpoint when one is named. */
function configOf(threadId: string, checkpoint?: CheckpointRef | null): RunnableConfig {
  const configurable: Record<string, unknown> = { thread_id: threadId, checkpoint_ns: '' };
  if (checkpoint?.checkpoint_id) configurable.checkpoint_id = checkpoint.checkpoint_id;
  if (checkpoint?.checkpoint_ns) configurable.checkpoint_ns = checkpoint.checkpoint_ns;
  return { configurable };
}

/**
 * A thread's state: read (now or at a checkpoint), update (a new checkpoint, as if `as_node` had
 * written `values`), and history (checkpoints newest first). Mounted at `/threads/:threadId`.
 */
export function createThreadStateRoutes({ threads, runs, graphs }: DeploymentDeps) {
  const app = new Hono();

  async function withThread(c: Context): Promise<ThreadRecord | Response> {
    const thread = await threads.get(c.req.param('threadId') ?? '');
    return thread ?? jsonError(c, 404, `Thread with ID ${c.req.param('threadId')} not found`);
  }

  /** The state now or at a checkpoint; `subgraphs` nests the state of each subgraph task. */
  async function stateAt(c: Context, checkpoint?: CheckpointRef | null, subgraphs = false) {
    const threadId = c.req.param('threadId') ?? '';
    const read = (served: ServedGraph) =>
      served.runtime.getState(configOf(threadId, checkpoint), { subgraphs });
    // With one graph served, the state is read alongside the thread (one round trip less); a
    // read that failed is made again below, once the thread is known to exist.
    const sole = graphs.sole();
    const [thread, early] = await Promise.all([
      withThread(c),
      sole && read(sole).catch(() => undefined),
    ]);
    if (thread instanceof Response) return thread;
    const served = sole ?? (await graphs.forThread(thread));
    const snapshot = early ?? (await read(served));
    return c.json(serializeState(snapshot, served.foreign));
  }

  async function history(c: Context, query: HistoryBody) {
    const thread = await withThread(c);
    if (thread instanceof Response) return thread;
    const { runtime, foreign } = await graphs.forThread(thread);
    const before =
      typeof query.before === 'string'
        ? { checkpoint_id: query.before }
        : query.before?.configurable;
    const wanted = query.checkpoint?.checkpoint_id;
    // A subgraph's history is read in its namespace (`checkpoint_ns` of a task's checkpoint).
    const namespace = { checkpoint_ns: query.checkpoint?.checkpoint_ns };
    const limit = query.limit ?? 10;
    const states: StateSnapshot[] = [];
    // Metadata is matched here (jsonb containment) rather than by the saver, whose SQL filter
    // compares JSON text with binary JSON.
    const options = before?.checkpoint_id ? { before: configOf(thread.thread_id, before) } : {};
    const config = configOf(thread.thread_id, namespace);
    for await (const state of runtime.getStateHistory(config, options)) {
      if (wanted && state.config.configurable?.checkpoint_id !== wanted) continue;
      if (query.metadata && !jsonContains(state.metadata ?? {}, query.metadata)) continue;
      states.push(state);
      if (states.length >= limit) break;
    }
    return c.json(states.map((state) => serializeState(state, foreign)));
  }

  app.get('/state', (c) => stateAt(c, null, isTrue(c.req.query('subgraphs'))));

  app.get('/state/:checkpointId', (c) =>
    stateAt(c, { checkpoint_id: c.req.param('checkpointId') }),
  );

  app.post('/state/checkpoint', async (c) => {
    const body = await parseJsonBody(c, stateAtCheckpointBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    return stateAt(c, body.data.checkpoint, body.data.subgraphs ?? false);
  });

  app.post('/state', async (c) => {
    const body = await parseJsonBody(c, updateStateBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const thread = await withThread(c);
    if (thread instanceof Response) return thread;
    // A run would overwrite the update, or the update land in the middle of the run.
    if ((await runs.active(thread.thread_id)).length > 0)
      return jsonError(c, 409, 'Thread is busy');
    const { values, as_node, checkpoint_id, checkpoint } = body.data;
    const at = { ...checkpoint, checkpoint_id: checkpoint_id ?? checkpoint?.checkpoint_id };
    const { runtime } = await graphs.forThread(thread);
    try {
      const next = await runtime.updateState(
        configOf(thread.thread_id, at),
        values ?? null,
        as_node ?? undefined,
      );
      await threads.touch(thread.thread_id);
      return c.json({ checkpoint: next.configurable ?? null });
    } catch (error) {
      // The graph refuses an update it cannot attribute: an unknown node, or an ambiguous one.
      return jsonError(c, 400, error instanceof Error ? error.message : String(error));
    }
  });

  app.get('/history', (c) => {
    const query = parseWith(historyQuery, c.req.query());
    return query.ok ? history(c, query.data) : jsonError(c, 422, query.detail);
  });

  app.post('/history', async (c) => {
    const body = await parseJsonBody(c, historyBody);
    return body.ok ? history(c, body.data) : jsonError(c, 422, body.detail);
  });

  return app;
}
