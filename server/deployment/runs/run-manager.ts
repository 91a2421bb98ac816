import { setTimeout as sleep } from 'node:timers/promises';
import { FINISHED_RUN_STATUSES } from '@contracts/deployment';
import type { RunStore } from '../store/deployment-store';
import type { NewRun, RunRecord } from '../store/records';
import type { CheckpointRollback } from '../store/deployment-store';
import type { RunEvents } from './run-events';
import type { RunExecutor } from './run-executor';
import { endRolledBack, type RunStreamLog } from './run-stream-log';
import type { ThreadLock } from './thread-lock';

interface RunManagerDeps {
  runs: RunStore;
  executor: RunExecutor;
  events: RunEvents;
  streams: RunStreamLog;
  checkpoints: CheckpointRollback;
  /** The per-thread lock (shared with the executor, which starts runs under it). */
  withThreadLock: ThreadLock;
  /**
   * Cluster mode: stops a run that another replica executes, returning once it has stopped and
   * been settled where it ran (or here, if that replica died): rolled back with its writes, its
   * stream ended and its joins woken. `true` when it was rolled back (gone), `false` when it
   * ended on its own first or was interrupted.
   */
  stopElsewhere?: (run: RunRecord, action: 'interrupt' | 'rollback') => Promise<boolean>;
  /** Told how many runs a rollback deleted here (the `/metrics` counter). */
  onRolledBack?: (count: number) => void;
}

/** A run to create (on the thread `create` is given). */
export interface NewRunRequest extends Omit<NewRun, 'threadId'> {
  /** Runs under the thread's lock once the run exists (protocol v2 queues its session there). */
  onCreated?: (run: RunRecord) => Promise<void>;
}

/**
 * Cluster mode: a join re-reads the run this often even without a wake-up (run ends arrive as
 * Redis messages, which a reconnecting replica can miss).
 */
const JOIN_RECHECK_MS = 1_000;

/** Outcome of an operation refused because of the thread's or run's current state (HTTP 409). */
export interface Conflict {
  conflict: string;
}

/**
 * The multitask contract. Every operation that changes which runs are active on a thread runs
 * under that thread's lock, so concurrent requests (triple-texting) apply one after another.
 */
export function createRunManager({
  runs,
  executor,
  events,
  streams,
  checkpoints,
  withThreadLock,
  stopElsewhere,
  onRolledBack,
}: RunManagerDeps) {
  let closed = false;

  /** Whether one of `targets` is the run executing on the thread (the rest are pending). */
  const includesExecuting = (threadId: string, targets: RunRecord[]) =>
    targets.some((run) => executor.isExecuting(threadId, run.run_id));
  /** A running run this process does not execute: another replica does (cluster mode). */
  const elsewhere = (run: RunRecord) =>
    stopElsewhere !== undefined &&
    run.status === 'running' &&
    !executor.isExecuting(run.thread_id, run.run_id);

  /**
   * Interrupts and deletes runs, and everything they wrote, returning the thread to before. A
   * run that ended on its own before the stop reached it (it finished first) is kept as it ended.
   */
  async function rollback(threadId: string, targets: RunRecord[]): Promise<void> {
    const stopExecuting = includesExecuting(threadId, targets);
    const rolledBack: RunRecord[] = [];
    for (const run of targets) {
      // Its owner deletes it, ends its stream and wakes its joins (as below, where it runs).
      if (elsewhere(run)) await stopElsewhere?.(run, 'rollback');
      else if (!executor.isExecuting(threadId, run.run_id)) {
        await runs.delete(run.run_id);
        rolledBack.push(run);
      }
    }
    const stopped = stopExecuting ? await executor.stop(threadId, 'rollback') : undefined;
    // The run record and what it wrote go in one transaction.
    if (stopped?.started) {
      await checkpoints.rollback(threadId, stopped.startCheckpointId, stopped.run.run_id);
    } else if (stopped) await runs.delete(stopped.run.run_id);
    if (stopped) rolledBack.push(stopped.run);
    rolledBack.forEach((run) => endRolledBack(streams, events, run.run_id));
    if (rolledBack.length > 0) onRolledBack?.(rolledBack.length);
  }

  /** Stops runs but keeps them (status `interrupted`) and what they wrote. */
  async function interrupt(threadId: string, targets: RunRecord[]): Promise<void> {
    const stopExecuting = includesExecuting(threadId, targets);
    for (const run of targets) {
      if (elsewhere(run)) await stopElsewhere?.(run, 'interrupt');
      else if (!executor.isExecuting(threadId, run.run_id)) {
        const ended = await runs.setStatus(run.run_id, 'interrupted');
        streams.close(run.run_id);
        events.notify(run.run_id, ended && { ended });
      }
    }
    if (stopExecuting) await executor.stop(threadId, 'interrupt');
  }

  /** Waits for the run's end; `existed`: whether the first read found it. */
  async function waitFor(threadId: string, runId: string) {
    for (let existed = false; ; existed = true) {
      // Listen before reading, so a change landing during the read still wakes this loop.
      const changed = events.changed(runId);
      const run = await runs.get(threadId, runId);
      if (!run) return { run, existed };
      if (closed || FINISHED_RUN_STATUSES.includes(run.status)) return { run, existed: true };
      const change = await (stopElsewhere
        ? Promise.race([changed, sleep(JOIN_RECHECK_MS, undefined)])
        : changed);
      // The notification says how the run ended, or that it is gone: no need to read it again.
      if (change && 'gone' in change) return { run: undefined, existed: true };
      if (change?.ended.thread_id === threadId) return { run: change.ended, existed: true };
    }
  }

  return {
    /**
     * Creates a run on `threadId` from what `prepare` answers: the request, or a refusal handed
     * back as it is. `prepare` (the caller's reads and checks) runs while the thread's lock is
     * being taken, not before: across replicas both are a round trip to the database.
     */
    create<Refusal extends { refused: unknown }>(
      threadId: string,
      prepare: () => Promise<NewRunRequest | Refusal>,
    ): Promise<RunRecord | Conflict | Refusal> {
      const prepared = prepare();
      // The lock's task awaits it; until then a rejection must not count as unhandled.
      prepared.catch(() => undefined);
      // The new run when no other run of the thread is left active once it is created: none
      // was, or this create stopped them all (rollback, interrupt).
      let sole: RunRecord | undefined;
      return withThreadLock<RunRecord | Conflict | Refusal>(
        threadId,
        async (held) => {
          const request = await prepared;
          if ('refused' in request) return request;
          const active = held.active ?? (await runs.active(threadId));
          if (active.length > 0 && request.strategy === 'reject') {
            return {
              conflict: `Thread ${threadId} already has an active run; it was kept and this one refused (multitask_strategy "reject").`,
            };
          }
          if (active.length > 0 && request.strategy === 'rollback') {
            await rollback(threadId, active);
          }
          if (active.length > 0 && request.strategy === 'interrupt') {
            await interrupt(threadId, active);
          }
          const run = await runs.create({ ...request, threadId });
          streams.open(run.run_id);
          await request.onCreated?.(run);
          const stoppedAll = request.strategy === 'rollback' || request.strategy === 'interrupt';
          if (active.length === 0 || stoppedAll) sole = run;
          return run;
        },
        // Started under the same lock once the caller has the run, not by a later `kick`
        // taking the lock again.
        (result) =>
          'run_id' in result ? executor.startNextHeld(threadId, sole) : Promise.resolve(),
      );
    },

    /** Cancels one active run: `interrupt` keeps it as interrupted, `rollback` deletes it. */
    cancel(run: RunRecord, action: 'interrupt' | 'rollback'): Promise<Conflict | undefined> {
      return withThreadLock(run.thread_id, async () => {
        const current = await runs.get(run.thread_id, run.run_id);
        if (!current || FINISHED_RUN_STATUSES.includes(current.status)) {
          return {
            conflict: `Run ${run.run_id} is not active (status ${current?.status ?? 'deleted'}).`,
          };
        }
        if (action === 'rollback') await rollback(run.thread_id, [current]);
        else await interrupt(run.thread_id, [current]);
        void executor.kick(run.thread_id);
        return undefined;
      });
    },

    /** Deletes a finished run's record; the thread state it contributed to stays. */
    delete(run: RunRecord): Promise<Conflict | undefined> {
      return withThreadLock(run.thread_id, async () => {
        const current = await runs.get(run.thread_id, run.run_id);
        if (current && !FINISHED_RUN_STATUSES.includes(current.status)) {
          return { conflict: `Run ${run.run_id} is active; cancel it before deleting it.` };
        }
        await runs.delete(run.run_id);
        streams.discard(run.run_id);
        events.notify(run.run_id, { gone: true });
        return undefined;
      });
    },

    /** Resolves with the run once it has finished, or `undefined` once it has been deleted. */
    waitUntilFinished: async (threadId: string, runId: string): Promise<RunRecord | undefined> =>
      (await waitFor(threadId, runId)).run,

    /**
     * A join: as `waitUntilFinished`, but `missing` when the run did not exist to begin with
     * (the first read is also the existence check: one read less than looking it up first).
     */
    async join(threadId: string, runId: string): Promise<RunRecord | 'missing' | undefined> {
      const { run, existed } = await waitFor(threadId, runId);
      return existed ? run : 'missing';
    },

    /**
     * Stops a run executing here at another replica's request (cluster mode). That replica holds
     * the thread's lock and waits until the run has stopped (rolled back: with its writes gone).
     */
    async stopHere(threadId: string, runId: string, action: 'interrupt' | 'rollback') {
      // The executor's own record of the run: it is running here (no read needed).
      const run = executor.executingOn(threadId);
      if (run?.run_id !== runId) return;
      if (action === 'rollback') await rollback(threadId, [run]);
      else await interrupt(threadId, [run]);
    },

    /** Stops executing runs (they become interrupted) and releases every waiting join. */
    async close(): Promise<void> {
      closed = true;
      await executor.close();
      streams.closeAll();
      events.releaseAll();
    },
  };
}

export type RunManager = ReturnType<typeof createRunManager>;
