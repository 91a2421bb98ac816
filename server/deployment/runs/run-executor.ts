import type { ServedGraph } from '../graph/graph-registry';
import { toWireData } from '../wire/sse';
import { threadRunStarted, type RunEvents } from './run-events';
import { runWorkspaceScope } from '../store/graph-store';
import { type RunTracing, workspaceOf } from './run-tracing';
import type { RunStreamLog } from './run-stream-log';
import { streamRun, type RunMeter } from './stream-run';
import type { ThreadLock } from './thread-lock';
import type { RunStore, RunWriteFence } from '../store/deployment-store';
import type { RunRecord } from '../store/records';

/**
 * Why a run was stopped from outside; decides what its record becomes. `requeue`: a cluster
 * replica shutting down hands it back to the queue (its caller does, see `drain`). `lost`: another
 * replica has already settled it (this one was taken for dead): nothing more is written.
 */
export type StopReason = 'interrupt' | 'rollback' | 'shutdown' | 'requeue' | 'lost';

/** What `stop` reports about the run it stopped, for the caller to roll back. */
export interface StoppedRun {
  run: RunRecord;
  /** Whether the graph was started; if so, `startCheckpointId` is the head it started from. */
  started: boolean;
  startCheckpointId: string | null;
}

interface ExecutingRun extends StoppedRun {
  /** Which start of the run this is (more than 1 once re-queued, cluster mode). */
  attempt: number;
  controller: AbortController;
  stopReason?: StopReason;
  /** `finish` has decided how the run ends: a stop asked from now on comes too late. */
  ended?: boolean;
  done: Promise<void>;
}

interface ExecutorDeps {
  /** The graph a run executes (built from the run's config when it comes from a factory). */
  graphFor: (run: RunRecord) => Promise<ServedGraph>;
  /** The executing run's metadata per thread, which the checkpointer adds to its checkpoints. */
  runMetadata?: Map<string, Record<string, unknown>>;
  /** Refuses a stopped run's checkpoint writes and waits for those under way. */
  writes?: RunWriteFence;
  runs: RunStore;
  /** The per-thread lock multitask decisions hold (shared with the run manager). */
  withThreadLock: ThreadLock;
  events: RunEvents;
  /** Traces each run with the langsmith SDK when set (see run-tracing.ts). */
  tracing?: RunTracing;
  /** Meters each run, attributed to its graph, when set (see metering/run-metering.ts). */
  meter?: (graphId: string, workspaceId?: string) => RunMeter;
  streams: RunStreamLog;
  /** This replica's id, recorded on the runs it executes (cluster mode). */
  owner?: string;
  /** How long a claimed run stays this replica's without a heartbeat (cluster mode). */
  leaseMs?: number;
  /**
   * Whether this replica may take runs now (cluster mode: not while its liveness lock is lost,
   * when the others may take it for dead and its runs from it). A run left pending is started
   * by the next kick or scan, here or on another replica.
   */
  mayClaim?: () => boolean;
  /** Called once a run has settled, unless it was rolled back (webhook, temporary thread). */
  onFinished?: (run: RunRecord, values: unknown) => void;
  /**
   * Runs a run's whole life (graph, end, webhook) apart from the request that happened to start
   * it, which may be another caller's than the run's: its graph's in-process SDK calls must not
   * act for that caller.
   */
  detached?: <T>(work: () => T) => T;
}

/**
 * Executes runs, one at a time per thread, oldest pending run first. `kick` is called whenever a
 * run may have become startable (created, or the previous one ended), so runs start at once.
 */
export function createRunExecutor({
  graphFor,
  runMetadata,
  writes,
  runs,
  withThreadLock,
  events,
  tracing,
  meter,
  streams,
  owner,
  leaseMs = 30_000,
  mayClaim = () => true,
  onFinished,
  detached = (work) => work(),
}: ExecutorDeps) {
  const executing = new Map<string, ExecutingRun>();
  const wakeUps = new Map<string, NodeJS.Timeout>();
  let closed = false;

  async function execute(entry: ExecutingRun): Promise<unknown> {
    const { run, controller } = entry;
    if (controller.signal.aborted) return null;
    entry.started = true;
    writes?.started(run.run_id);
    runMetadata?.set(run.thread_id, {
      ...run.metadata,
      run_id: run.run_id,
      thread_id: run.thread_id,
      assistant_id: run.assistant_id,
    });
    try {
      const served = await graphFor(run);
      const publish = (event: string, data: unknown) =>
        streams.publish(run.run_id, event, toWireData(data, served.foreign), entry.attempt);
      const workspace = workspaceOf(run);
      // The run's store operations are its workspace's (see GraphStore).
      const values = await runWorkspaceScope.run(workspace, () =>
        streamRun(
          served,
          run,
          publish,
          controller.signal,
          tracing?.callbacks(served.graphId, workspace),
          entry.attempt,
          meter?.(served.graphId, workspace),
        ),
      );
      return toWireData(values, served.foreign);
    } finally {
      runMetadata?.delete(run.thread_id);
    }
  }

  async function finish(entry: ExecutingRun, error: unknown, result: unknown = null) {
    // Decided at once, against any stop asked before this line: one end per run.
    entry.ended = true;
    const { run, stopReason } = entry;
    // Cluster mode: the end is written only while the run is still this replica's. Another one
    // that took it for dead has re-queued or settled it: this copy's end is not the run's.
    const end = (status: 'interrupted' | 'success' | 'error', message?: string) =>
      runs.setStatus(run.run_id, status, message ?? null, owner);
    let settled: RunRecord | undefined;
    if (stopReason === 'interrupt' || stopReason === 'shutdown') {
      settled = await end('interrupted');
    } else if (stopReason === undefined && error === undefined) {
      settled = await end('success');
    } else if (stopReason === undefined) {
      const message = error instanceof Error ? error.message : String(error);
      settled = await end('error', message);
      if (!settled && owner) return;
      // As the platform: the error closes the stream, as `{error: <class name>, message}`.
      streams.publish(run.run_id, 'error', toWireData(error), entry.attempt);
    }
    // A rolled-back run is deleted by whoever stopped it, who then ends its stream and joins; a
    // re-queued or lost one starts over elsewhere, its stream going on with the next attempt.
    if (stopReason === 'rollback' || stopReason === 'requeue' || stopReason === 'lost') return;
    if (!settled && owner) return;
    streams.close(run.run_id, result, entry.attempt);
    events.notify(run.run_id, settled && { ended: settled });
    if (settled) onFinished?.(settled, result);
  }

  /**
   * The oldest pending run that is due; else wakes `kick` when the first delayed one is. `read`:
   * the thread's active runs, when the lock read them as it was taken.
   */
  async function nextDue(threadId: string, read?: RunRecord[]): Promise<RunRecord | undefined> {
    const active = read ?? (await runs.active(threadId));
    // A run of the thread runs elsewhere (another replica): the thread is not free.
    if (active.some((run) => run.status === 'running')) return undefined;
    const pending = active.filter((run) => run.status === 'pending');
    const now = Date.now();
    const due = pending.find(
      (run) => !run.kwargs.not_before || Date.parse(run.kwargs.not_before) <= now,
    );
    if (due || pending.length === 0 || wakeUps.has(threadId)) return due;
    const first = Math.min(...pending.map((run) => Date.parse(run.kwargs.not_before ?? '')));
    const timer = setTimeout(() => {
      wakeUps.delete(threadId);
      void kick(threadId);
    }, first - now);
    timer.unref();
    wakeUps.set(threadId, timer);
    return undefined;
  }

  /**
   * Starts the thread's next due run unless one is executing. Runs under the thread's lock (the
   * run manager's), so no multitask decision sees a run between `pending` and executing.
   */
  const kick = (threadId: string): Promise<void> =>
    closed
      ? Promise.resolve()
      : withThreadLock(threadId, (held) => startNext(threadId, undefined, held.active)).catch(
          warn(threadId),
        );

  /**
   * `kick` for a caller that already holds the thread's lock. `sole`: a run the caller knows to
   * be the thread's only active one (it read the others under this lock and stopped them), so
   * the queue need not be read again to find it; one with a delay (`after_seconds`) waits.
   */
  const startNextHeld = (threadId: string, sole?: RunRecord): Promise<void> =>
    startNext(threadId, sole?.kwargs.not_before ? undefined : sole).catch(warn(threadId));

  // Callers fire and forget: a database error here must not end the process. The next kick (a
  // run's end, a new run, cluster mode's scan of pending runs) tries again.
  const warn = (threadId: string) => (error: unknown) => {
    console.warn(`Deployment: could not start thread ${threadId}'s next run: ${String(error)}`);
  };

  /**
   * A run's end: `kick` only when the thread has a pending run, read without the lock (the usual
   * case, nothing queued, then costs one read instead of the lock). A run queued after this read
   * is started by its creator's own kick, which comes after this run's end was recorded.
   */
  const kickIfPending = async (threadId: string): Promise<void> => {
    try {
      if (!(await runs.active(threadId)).some((run) => run.status === 'pending')) return;
    } catch {
      // Unsure: let the kick's own read decide (and report).
    }
    await kick(threadId);
  };

  async function startNext(
    threadId: string,
    sole?: RunRecord,
    active?: RunRecord[],
  ): Promise<void> {
    if (closed || executing.has(threadId)) return;
    const next = sole ?? (await nextDue(threadId, active));
    if (!next || closed || executing.has(threadId) || !mayClaim()) return;
    // Under the thread lock with no run executing: the head it records is the one it starts from.
    const claimed = await runs.claim({ runId: next.run_id, owner: owner ?? 'local', leaseMs });
    if (!claimed) return;
    const { attempt, startCheckpointId } = claimed;
    events.notify(threadRunStarted(threadId));
    // A run queued before a restart has no log yet; one created since has (open is idempotent).
    // The run its creator hands over was opened a moment ago, under this lock.
    if (!sole) streams.open(next.run_id);
    // As the platform: each attempt starts with its number, so a reader of a re-queued run's
    // stream knows that what follows starts over.
    streams.publish(next.run_id, 'metadata', { run_id: next.run_id, attempt }, attempt);
    const entry: ExecutingRun = {
      run: next,
      controller: new AbortController(),
      attempt,
      started: false,
      startCheckpointId,
      done: Promise.resolve(),
    };
    // The graph starts a timer tick later, once the request that created the run has answered:
    // a stream's headers and `metadata` go out (and are read) before the graph takes the CPU.
    entry.done = detached(() =>
      new Promise((resolve) => setTimeout(resolve, 1))
        .then(() => execute(entry))
        .then(
          (result) => finish(entry, undefined, result),
          (error: unknown) => finish(entry, error),
        )
        // Its end could not be written (the database away): its readers get an error, not a hang.
        .catch((error: unknown) => {
          console.warn(`Run ${next.run_id}: its end was not recorded: ${String(error)}`);
          streams.publish(next.run_id, 'error', toWireData(error), attempt);
          streams.close(next.run_id, undefined, attempt);
        }),
    );
    void entry.done.finally(() => {
      executing.delete(threadId);
      if (entry.stopReason === undefined) void kickIfPending(threadId);
    });
    executing.set(threadId, entry);
  }

  /**
   * Aborts the thread's executing run (if any) and resolves once it has fully settled. Undefined
   * when nothing was stopped: no run executes, or the one executing had already ended on its own
   * (it finished, failed or was interrupted before the stop came): it keeps that end, and the
   * caller must not roll it back, since other replicas may already have seen it finished.
   */
  async function stop(threadId: string, reason: StopReason): Promise<StoppedRun | undefined> {
    const entry = executing.get(threadId);
    if (!entry) return undefined;
    if (entry.ended) {
      await entry.done;
      return undefined;
    }
    entry.stopReason = reason;
    entry.controller.abort(new Error(`Run ${entry.run.run_id} stopped: ${reason}`));
    await entry.done;
    // A graph given the signal (a loaded one) ends before its last writes land: wait for them,
    // and refuse the rest, so the run has written all it ever will (rollback deletes it all).
    await writes?.stopped(entry.run.run_id);
    return { run: entry.run, started: entry.started, startCheckpointId: entry.startCheckpointId };
  }

  const executingOn = (threadId: string) => executing.get(threadId)?.run;

  return {
    kick,
    startNextHeld,
    stop,
    isExecuting: (threadId: string, runId: string) => executingOn(threadId)?.run_id === runId,
    /** The run executing on the thread here, if any (the executor's own record of it). */
    executingOn,
    /**
     * Stops the run if it still executes here, writing nothing: another replica settled it (it
     * took this one for dead), so its record and stream are that replica's now.
     */
    async abandon(threadId: string, runId: string): Promise<void> {
      if (executingOn(threadId)?.run_id === runId) await stop(threadId, 'lost');
    },
    /** The runs executing here (for the lease heartbeat). */
    executingRuns: () => [...executing.values()].map((entry) => entry.run),
    executingCount: () => executing.size,
    /** Interrupts every executing run, staying open (the test-only truncate route). */
    async stopAll(): Promise<void> {
      await Promise.all([...executing.keys()].map((threadId) => stop(threadId, 'interrupt')));
    },
    /**
     * Cluster shutdown: takes no new run, lets the executing ones finish within `graceMs`, then
     * stops the rest and hands each to `requeue` (back to the queue for another replica).
     */
    async drain(graceMs: number, requeue: (stopped: StoppedRun) => Promise<void>): Promise<void> {
      closed = true;
      wakeUps.forEach((timer) => clearTimeout(timer));
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([
        Promise.all([...executing.values()].map((entry) => entry.done)),
        graceOver,
      ]);
      clearTimeout(timer);
      await Promise.all(
        [...executing.keys()].map(async (threadId) => {
          const stopped = await stop(threadId, 'requeue');
          if (stopped) await requeue(stopped);
        }),
      );
    },

    /** Stops every executing run (marked interrupted); pending runs stay for the next start. */
    async close(): Promise<void> {
      closed = true;
      wakeUps.forEach((timer) => clearTimeout(timer));
      await Promise.all([...executing.keys()].map((threadId) => stop(threadId, 'shutdown')));
    },
  };
}

export type RunExecutor = ReturnType<typeof createRunExecutor>;
