import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { RunCheckpointer } from './deployment-store';

/** How long a stopped run's writes stay refused (its graph may outlive the stop, see below). */
const FENCE_MS = 10 * 60_000;

/** The caller's identity travels in the run's config, never into the thread's history. */
const AUTH_KEYS = ['langgraph_auth_user', 'langgraph_auth_user_id', 'langgraph_auth_permissions'];

function withoutAuth<T extends Record<string, unknown>>(metadata: T): T {
  if (!AUTH_KEYS.some((key) => key in metadata)) return metadata;
  return Object.fromEntries(
    Object.entries(metadata).filter(([key]) => !AUTH_KEYS.includes(key)),
  ) as T;
}

/**
 * Makes `saver` add the executing run's metadata (its `metadata` and ids) to each checkpoint it
 * writes, as the platform does: a thread's history can then be filtered by a run's metadata
 * (`getHistory(thread, { metadata })`). LangGraph itself writes only source/step/parents.
 *
 * It also fences a stopped run's writes. A graph given an abort signal (a user's graph from a
 * langgraph.json) stops streaming the moment the signal fires, while its loop is still saving the
 * last step's checkpoint and pending writes, and may start new ones while it winds down. On an
 * asynchronous saver (Postgres) those land after the stop, where they would survive a rollback
 * or mix into the next run's history. `stopped(runId)` refuses the run's later writes and waits
 * for those already under way, so the caller acts on everything the run will ever write.
 * Works on any backend's saver (SQLite, Postgres): it wraps `put` and `putWrites` on the instance.
 */
export function withRunMetadata(saver: BaseCheckpointSaver): RunCheckpointer {
  const runMetadata = new Map<string, Record<string, unknown>>();
  const inFlight = new Map<string, Set<Promise<unknown>>>();
  const fenced = new Map<string, NodeJS.Timeout>();

  const runIdOf = (config: { configurable?: Record<string, unknown> }) => {
    const runId = config.configurable?.run_id;
    return typeof runId === 'string' ? runId : undefined;
  };

  /** Keeps `write` among the run's writes under way until it settles. */
  function track<T>(runId: string | undefined, write: Promise<T>): Promise<T> {
    if (runId === undefined) return write;
    const writes = inFlight.get(runId) ?? new Set();
    inFlight.set(runId, writes);
    const settled = write.finally(() => {
      writes.delete(settled);
      if (writes.size === 0) inFlight.delete(runId);
    });
    writes.add(settled);
    return settled;
  }

  const put = saver.put.bind(saver);
  saver.put = (config, checkpoint, metadata, newVersions) => {
    const runId = runIdOf(config);
    if (runId !== undefined && fenced.has(runId)) {
      // What the saver answers for a stored checkpoint; nothing is stored.
      return Promise.resolve({
        configurable: {
          thread_id: config.configurable?.thread_id,
          checkpoint_ns: config.configurable?.checkpoint_ns ?? '',
          checkpoint_id: checkpoint.id,
        },
      });
    }
    const threadId: unknown = config.configurable?.thread_id;
    const run = typeof threadId === 'string' ? runMetadata.get(threadId) : undefined;
    return track(
      runId,
      put(config, checkpoint, withoutAuth(run ? { ...run, ...metadata } : metadata), newVersions),
    );
  };

  const putWrites = saver.putWrites.bind(saver);
  saver.putWrites = (config, writes, taskId) => {
    const runId = runIdOf(config);
    if (runId !== undefined && fenced.has(runId)) return Promise.resolve();
    return track(runId, putWrites(config, writes, taskId));
  };

  return {
    saver,
    runMetadata,
    writes: {
      started(runId) {
        clearTimeout(fenced.get(runId));
        fenced.delete(runId);
      },
      async stopped(runId) {
        clearTimeout(fenced.get(runId));
        const timer = setTimeout(() => fenced.delete(runId), FENCE_MS);
        timer.unref();
        fenced.set(runId, timer);
        // A failed write is the graph's business (it has already ended): only its end matters.
        await Promise.allSettled([...(inFlight.get(runId) ?? [])]);
      },
    },
  };
}
