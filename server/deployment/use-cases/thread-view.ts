import type { GraphRegistry } from '../graph/graph-registry';
import type { RunStore } from '../store/deployment-store';
import type { ThreadRecord } from '../store/records';
import { jsonContains } from '../wire/json-contains';
import { serializeValues } from '../wire/serialize';
import type { SearchThreadsBody } from '../wire/thread-requests';

interface Page {
  limit: number;
  offset: number;
  /** Set when sorting by status, which only the computed view knows (stable on `all`'s order). */
  byStatus?: 'asc' | 'desc';
}

export type ThreadStatus = 'idle' | 'busy' | 'interrupted' | 'error';

export interface WireThread extends ThreadRecord {
  state_updated_at: string;
  status: ThreadStatus;
  values: Record<string, unknown>;
  interrupts: Record<string, unknown[]>;
}

/** Sorts by status name, as the official server does. */
const byStatus = (order: 'asc' | 'desc') => (a: WireThread, b: WireThread) =>
  order === 'asc' ? a.status.localeCompare(b.status) : b.status.localeCompare(a.status);

/**
 * A thread as the LangGraph API answers it: the record plus what is derived from its runs and
 * its latest checkpoint. Status, in the platform's order: `busy` while a run is active, `error`
 * after a failed run, `interrupted` while the graph has nodes left to run (`next`), else `idle`.
 */
export function createThreadView({ runs, graphs }: { runs: RunStore; graphs: GraphRegistry }) {
  async function toWire(thread: ThreadRecord): Promise<WireThread> {
    const { runtime, foreign } = await graphs.forThread(thread);
    const snapshot = await runtime.getState({ configurable: { thread_id: thread.thread_id } });
    const interrupts: Record<string, unknown[]> = {};
    for (const task of snapshot.tasks) {
      if (task.interrupts.length > 0) interrupts[task.id] = task.interrupts;
    }
    const busy = (await runs.active(thread.thread_id)).length > 0;
    const failed = (await runs.latest(thread.thread_id))?.status === 'error';
    const status: ThreadStatus = busy
      ? 'busy'
      : failed
        ? 'error'
        : snapshot.next.length > 0
          ? 'interrupted'
          : 'idle';
    return {
      ...thread,
      state_updated_at: snapshot.createdAt ?? thread.updated_at,
      status,
      values: serializeValues(snapshot.values, foreign),
      interrupts,
    };
  }

  /**
   * A thread this request has just created, with no checkpoint and no run yet: what `toWire`
   * would read back (an empty state, idle), without the three reads.
   */
  function fresh(thread: ThreadRecord): WireThread {
    return {
      ...thread,
      state_updated_at: thread.updated_at,
      status: 'idle',
      values: {},
      interrupts: {},
    };
  }

  /**
   * Threads matching a search or count body, in `all`'s order. Ids and metadata are checked on
   * the records; only a `status` or `values` filter (or a sort by status) needs every candidate's
   * state, otherwise just the page is read (none for a count, whose page is empty).
   */
  async function search(all: ThreadRecord[], query: SearchThreadsBody, page: Page) {
    const ids = query.ids && query.ids.length > 0 ? new Set(query.ids) : undefined;
    const candidates = all.filter(
      (thread) =>
        (!ids || ids.has(thread.thread_id)) &&
        (!query.metadata || jsonContains(thread.metadata, query.metadata)),
    );
    const needsState = Boolean(query.status || query.values || page.byStatus);
    if (!needsState) {
      const slice = candidates.slice(page.offset, page.offset + page.limit);
      return { total: candidates.length, threads: await Promise.all(slice.map(toWire)) };
    }
    const matching = (await Promise.all(candidates.map(toWire))).filter(
      (thread) =>
        (!query.status || thread.status === query.status) &&
        (!query.values || jsonContains(thread.values, query.values)),
    );
    if (page.byStatus) matching.sort(byStatus(page.byStatus));
    return {
      total: matching.length,
      threads: matching.slice(page.offset, page.offset + page.limit),
    };
  }

  return { toWire, fresh, search };
}

export type ThreadView = ReturnType<typeof createThreadView>;

/** Keeps only the `select`ed fields, as the platform's search does. */
export function selectFields(item: object, select: readonly string[] | null | undefined) {
  if (!select) return item;
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (select.includes(key)) picked[key] = value;
  }
  return picked;
}
