import { setTimeout as sleep } from 'node:timers/promises';
import { inBackground } from '@server/lib/in-background';
import type { CheckpointRollback, RunStore } from '../store/deployment-store';
import type { CancelAction, RunLeases } from '../store/postgres/run-leases';
import type { RunRecord } from '../store/records';
import type { RunEvents } from '../runs/run-events';
import type { StoppedRun } from '../runs/run-executor';
import { endRolledBack, type RunStreamLog } from '../runs/run-stream-log';
import type { ThreadLock } from '../runs/thread-lock';
import type { CancelBus } from './cancel-bus';

interface ClusterRunsDeps {
  leases: RunLeases;
  bus: CancelBus;
  checkpoints: CheckpointRollback;
  runs: RunStore;
  /** Run ends across replicas: a stop waits on them, a settled run wakes its joins. */
  events: RunEvents;
  /** The cross-replica stream log: a settled run's stream ends for its readers. */
  streams: RunStreamLog;
  owner: string;
  leaseMs: number;
}

/** What the coordinator drives on this replica once the executor and manager exist. */
export interface ClusterHooks {
  withThreadLock: ThreadLock;
  isExecuting: (threadId: string, runId: string) => boolean;
  executingRuns: () => RunRecord[];
  /** Stops a run executing here on another replica's request (its lock is held there). */
  stopHere: (threadId: string, runId: string, action: CancelAction) => Promise<void>;
  kick: (threadId: string) => Promise<void>;
  /** Stops, writing nothing, a run executing here that another replica has settled. */
  abandonHere: (threadId: string, runId: string) => Promise<void>;
  /** After a run was cut off: answers the tool call it left, as on a restart. */
  repairThread: (threadId: string) => Promise<void>;
  /** Told how each run whose owner died was settled: `pending` (re-queued), `rolled_back`, ... */
  onLeaseExpired?: (outcome: string) => void;
}

/** A stop re-reads the lease this often if no run-change message came (one lost in a reconnect). */
const POLL_MS = 250;
const PENDING_SCAN_MS = 1_000;
/** Runs of dead replicas are looked for at least this often, whatever the lease. */
const SWEEP_MS = 500;
/**
 * How long an owner must be seen without its liveness lock before its runs are taken: a live
 * replica whose session dropped (a Postgres restart) has it back well within this.
 */
const OWNER_GONE_CONFIRM_MS = 1_000;
/**
 * While this replica's own liveness lock is lost, it looks this often (well within the others'
 * confirmation) whether its runs were taken, so a copy taken for dead stops within a step.
 */
const LIVENESS_LOST_CHECK_MS = 100;

/**
 * Cluster mode's run coordination (DATABASE_URI + REDIS_URI): cancel and rollback reach the
 * replica that executes a run (Redis, plus the durable request it re-reads on each heartbeat);
 * the owner renews its leases every third of the lease; every replica settles runs whose owner
 * died (its liveness lock is gone, see replica-liveness.ts) or whose lease expired (it hangs),
 * and starts pending runs no replica has taken.
 */
export function createClusterRuns({
  leases,
  bus,
  checkpoints,
  runs,
  events,
  streams,
  owner,
  leaseMs,
}: ClusterRunsDeps) {
  const timers: NodeJS.Timeout[] = [];
  let hooks: ClusterHooks | undefined;

  /**
   * Called under the thread's lock: returns once the run is stopped (rolled back: gone). Answers
   * whether the run is gone, i.e. rolled back as asked: `false` when it ended on its own first
   * (its owner had decided its end before the request reached it; it keeps that end) or was
   * interrupted.
   */
  async function stop(run: RunRecord, action: CancelAction): Promise<boolean> {
    // Listening from before the request: once it is recorded on the running run, the run's end
    // (the owner's stop, or its own) comes as a run-change message, so the first read of the
    // lease can wait for it.
    let changed = events.changed(run.run_id);
    // The message and the durable request go out together: the owner acts on whichever it sees
    // first. A request that found the run no longer running means it ended on its own, or its
    // owner already rolled it back on the message (gone).
    const [requested] = await Promise.all([
      leases.requestCancel(run.run_id, action),
      bus.publish({ runId: run.run_id, threadId: run.thread_id, action }),
    ]);
    if (!requested) return (await leases.lease(run.run_id)) === 'gone';
    for (;;) {
      const change = await Promise.race([changed, sleep(POLL_MS, undefined)]);
      // The owner's message says what became of the run: no need to read its lease.
      if (change) return 'gone' in change;
      changed = events.changed(run.run_id);
      const state = await leases.lease(run.run_id);
      if (state === 'gone') return true;
      if (state === 'settled') return false;
      if (state === 'expired') return settle(run.run_id);
    }
  }

  /**
   * Ends a run whose owner is gone: re-queued (started over), interrupted, rolled back (with its
   * writes) or, after its last attempt, failed. Answers whether it was rolled back. `deadOwner`:
   * the owner found dead by its liveness lock, before its lease ran out.
   */
  async function settle(runId: string, deadOwner?: string): Promise<boolean> {
    const settled = await leases.settleExpired(runId, deadOwner);
    if (!settled) return false;
    hooks?.onLeaseExpired?.(settled.cancel_action === 'rollback' ? 'rolled_back' : settled.status);
    // Back in the queue, started over: its stream goes on with the next attempt's events.
    if (settled.status === 'pending') return false;
    if (settled.cancel_action === 'rollback') {
      await checkpoints.rollback(settled.thread_id, settled.start_checkpoint_id, settled.run_id);
      endRolledBack(streams, events, settled.run_id);
      return true;
    }
    await hooks?.repairThread(settled.thread_id);
    // Its stream may lack the events the dead replica had not written out: a reader is told the
    // run failed rather than shown a clean end.
    if (settled.status === 'error') {
      streams.publish(settled.run_id, 'error', { error: 'RunLost', message: settled.error });
    }
    streams.close(settled.run_id);
    events.notify(settled.run_id);
    return false;
  }

  /**
   * A run this replica stopped at shutdown goes back to the queue, where another replica takes
   * it up (each starts pending runs every second). A run with a cancel request on it is settled
   * as asked instead: interrupted, or rolled back with its writes.
   */
  async function requeue({ run, startCheckpointId }: StoppedRun): Promise<void> {
    if (await leases.requeue(owner, run.run_id, run.thread_id, startCheckpointId)) return;
    const action = await leases.cancelRequested(owner, run.run_id);
    if (action === 'rollback') {
      await checkpoints.rollback(run.thread_id, startCheckpointId, run.run_id);
      endRolledBack(streams, events, run.run_id);
      return;
    }
    if (action === 'interrupt') {
      await runs.setStatus(run.run_id, 'interrupted');
      streams.close(run.run_id);
    }
    events.notify(run.run_id);
  }

  /** A heartbeat under way: the liveness checks do not stack one on another. */
  let beating: Promise<void> | undefined;
  const beatOnce = (active: ClusterHooks) =>
    (beating ??= heartbeat(active).finally(() => (beating = undefined)));

  async function heartbeat(active: ClusterHooks) {
    const mine = active.executingRuns();
    const held = await leases.renew(
      owner,
      mine.map((run) => run.run_id),
      leaseMs,
    );
    for (const run of held) {
      if (run.cancel_action) {
        const stopping = active.stopHere(run.thread_id, run.run_id, run.cancel_action);
        inBackground(`Run ${run.run_id} could not be stopped`, stopping);
      }
    }
    // Still running here but no longer this replica's: it was taken for dead (its liveness
    // session was gone too long, or it missed its lease), and the run starts over elsewhere.
    const kept = new Set(held.map((run) => run.run_id));
    for (const run of mine) {
      if (kept.has(run.run_id)) continue;
      const stopping = active.abandonHere(run.thread_id, run.run_id);
      inBackground(`Run ${run.run_id} could not be stopped`, stopping);
    }
  }

  /** Whether this replica holds its liveness lock (see `livenessChanged`). */
  let livenessHeld = false;

  /** When each run whose owner holds no liveness lock was first seen so (cleared once it does). */
  const ownerGoneSince = new Map<string, number>();

  async function sweep(active: ClusterHooks) {
    // Without its own lock this replica may be the one taken for dead: settling and starting runs
    // is left to the others until it is back.
    if (!livenessHeld) return;
    const orphaned = await leases.orphaned();
    const now = Date.now();
    const suspected = new Set(orphaned.map((run) => run.run_id));
    for (const runId of ownerGoneSince.keys()) {
      if (!suspected.has(runId)) ownerGoneSince.delete(runId);
    }
    for (const run of orphaned) {
      if (!run.lease_expired) {
        const since = ownerGoneSince.get(run.run_id) ?? now;
        ownerGoneSince.set(run.run_id, since);
        if (now - since < OWNER_GONE_CONFIRM_MS) continue;
      }
      ownerGoneSince.delete(run.run_id);
      const deadOwner = run.lease_expired ? undefined : run.owner;
      await active.withThreadLock(run.thread_id, () => settle(run.run_id, deadOwner));
      void active.kick(run.thread_id);
    }
  }

  async function startPending(active: ClusterHooks) {
    if (!livenessHeld) return;
    for (const threadId of await runs.threadsWithPendingRuns()) void active.kick(threadId);
  }

  const warn = (error: unknown) => console.warn(`Cluster: ${String(error)}`);
  const every = (ms: number, task: (active: ClusterHooks) => Promise<void>) => {
    const timer = setInterval(() => {
      if (hooks) task(hooks).catch(warn);
    }, ms);
    timer.unref();
    timers.push(timer);
  };
  let livenessLost: NodeJS.Timeout | undefined;

  return {
    stop,
    requeue,
    start(active: ClusterHooks) {
      hooks = active;
      bus.onCancel(({ runId, threadId, action }) => {
        if (!active.isExecuting(threadId, runId)) return;
        inBackground(`Run ${runId} could not be stopped`, active.stopHere(threadId, runId, action));
      });
      every(Math.max(50, Math.floor(leaseMs / 3)), beatOnce);
      every(Math.max(100, Math.min(SWEEP_MS, Math.floor(leaseMs / 3))), sweep);
      every(PENDING_SCAN_MS, startPending);
    },
    /**
     * This replica's liveness lock was lost (`false`) or is held again (`true`). Lost, the others
     * take its runs after their confirmation: meanwhile it takes and settles no run, checks its
     * leases ten times a second and stops at once a copy that is no longer its own (the heartbeat
     * does). Held again: one last check, for a takeover that came just before.
     */
    livenessChanged(held: boolean) {
      livenessHeld = held;
      clearInterval(livenessLost);
      livenessLost = undefined;
      const check = () => {
        if (hooks) beatOnce(hooks).catch(warn);
      };
      if (held) {
        // After any check under way, which may have read the leases before the takeover.
        void (beating ?? Promise.resolve()).catch(() => undefined).then(check);
        return;
      }
      livenessLost = setInterval(check, LIVENESS_LOST_CHECK_MS);
      livenessLost.unref();
    },
    /** Whether this replica may take runs: it holds its liveness lock. */
    holdsLiveness: () => livenessHeld,
    async close() {
      clearInterval(livenessLost);
      hooks = undefined;
      timers.splice(0).forEach((timer) => clearInterval(timer));
      await bus.close();
    },
  };
}

export type ClusterRuns = ReturnType<typeof createClusterRuns>;
