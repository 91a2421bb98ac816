import type { Context } from 'hono';
import { jsonError } from '@server/http/json-error';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import { pause } from '../runs/pause';
import { threadRunStarted } from '../runs/run-events';
import type { RunStreamEvent } from '../runs/run-stream-log';
import type { RunRecord } from '../store/records';
import { sseResponse } from '../wire/sse';
import { queryList, streamModeFilter } from '../wire/stream-mode-filter';

/**
 * An idle thread stream wakes when a run of the thread starts (on any replica); it also looks
 * again this often, for a wake-up lost in a reconnect and for a run that ended between looks.
 */
const RECHECK_MS = 1_000;

/** What ends each run on a thread's stream. */
const RUN_DONE = 'run_done';

/**
 * `stream_mode` of a thread join: `run_modes` (every event of each run and a `run_done` after
 * it, the default), `lifecycle` (a run's `metadata` when it starts, `error` if it fails,
 * `run_done`), `state_update` (the state after each step: `values` events), or run modes
 * (`values`, `updates`, ...) to pick from.
 */
function threadStreamFilter(modes: string[] | undefined) {
  const wanted = modes ?? ['run_modes'];
  if (wanted.includes('run_modes')) return () => true;
  const runModes = wanted.flatMap((mode) => {
    if (mode === 'lifecycle') return [];
    return mode === 'state_update' ? ['values'] : [mode];
  });
  const keep = streamModeFilter(runModes);
  const lifecycle = wanted.includes('lifecycle');
  return (event: RunStreamEvent) =>
    ['metadata', 'error', RUN_DONE].includes(event.event) ? lifecycle || keep(event) : keep(event);
}

/**
 * `threads.joinStream(threadId)`: the events of each run executed on the thread, one run after
 * the other in the order they execute, from the run active when the client joins; open until the client leaves or the
 * thread is deleted. Event ids are `<run_id>:<index>`; `run_done` (`{run_id, status}`) follows
 * each run.
 */
export async function joinThreadStream(c: Context, deps: DeploymentDeps) {
  const { threads, runs, streams, events: runEvents } = deps;
  const threadId = c.req.param('threadId') ?? '';
  if (!(await threads.get(threadId)))
    return jsonError(c, 404, `Thread with ID ${threadId} not found`);
  const keep = threadStreamFilter(queryList(c.req.queries('stream_mode')));

  /**
   * The next run to relay: the one executing, else one seen pending that has already finished
   * (between two looks; its log is kept a minute). Runs start in their own order (a delayed run
   * waits while a later one executes), so a pending run is never waited on.
   */
  async function nextRun(seen: Map<string, RunRecord>, joined: Set<string>) {
    const active = await runs.active(threadId);
    active.forEach((run) => seen.set(run.run_id, run));
    const running = active.find((run) => run.status === 'running' && !joined.has(run.run_id));
    if (running) return running;
    const activeIds = new Set(active.map((run) => run.run_id));
    return [...seen.values()].find((run) => !activeIds.has(run.run_id) && !joined.has(run.run_id));
  }

  async function* events(signal: AbortSignal): AsyncGenerator<RunStreamEvent> {
    const seen = new Map<string, RunRecord>();
    const joined = new Set<string>();
    while (!signal.aborted && (await threads.get(threadId))) {
      // Listen before looking, so a run starting during the look still wakes this loop.
      const started = runEvents.changed(threadRunStarted(threadId));
      const next = await nextRun(seen, joined);
      if (!next) {
        await pause(RECHECK_MS, started, signal);
        continue;
      }
      joined.add(next.run_id);
      let last = -1;
      for await (const event of streams.read(next.run_id, 0, signal)) {
        last = Number(event.id);
        if (keep(event)) yield { ...event, id: `${next.run_id}:${event.id}` };
      }
      if (signal.aborted) return;
      const finished = await runs.get(threadId, next.run_id);
      const done = { run_id: next.run_id, status: finished?.status ?? 'deleted' };
      const event = { id: `${next.run_id}:${last + 1}`, event: RUN_DONE, data: done };
      if (keep(event)) yield event;
    }
  }
  return sseResponse(c, events);
}
