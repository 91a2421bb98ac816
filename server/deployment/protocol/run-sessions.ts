import type { RunStatus } from '@contracts/deployment';
import { createEventNormaliser } from './event-normaliser';
import type { ProtocolAdapter } from './protocol-adapter';
import type { ThreadEventLog } from './thread-event-log';

/** The root lifecycle a finished run ends with (none while it runs, or once it is deleted). */
function terminalOf(status: RunStatus | undefined, waitingForInput: boolean) {
  if (status === 'success') return waitingForInput ? 'interrupted' : 'completed';
  if (status === 'error') return 'failed';
  if (status === 'interrupted') return 'interrupted';
  return undefined;
}

interface SessionRun {
  threadId: string;
  runId: string;
  graphName: string;
}

/**
 * Streams protocol runs into their thread's event log: one run after another per thread, in the
 * order they were created (`queue`, under the thread's lock, whichever replica creates them), so
 * an enqueued run's events follow the end of the one before. Each is framed by the root
 * lifecycle: `running` when it starts, then `completed`, `interrupted` (ended waiting for input,
 * or stopped) or `failed`. A rolled-back run's events are taken out of later readers' replay and
 * it sends no terminal lifecycle: it never happened (the official server sends none for a
 * deleted run either), and the next run's `running` follows.
 */
export function createRunSessions(log: ThreadEventLog, adapter: ProtocolAdapter) {
  const running = new Set<Promise<void>>();
  const shutdown = new AbortController();

  /** Streams the run; whether it was rolled back. */
  async function stream({ threadId, runId, graphName }: SessionRun): Promise<boolean> {
    const normaliser = createEventNormaliser(graphName);
    let end: 'failed' | 'rolled-back' | undefined;
    for await (const source of adapter.runEvents(runId, shutdown.signal)) {
      const normalised = normaliser.normalise(source);
      normalised.events.forEach((event) => log.append(threadId, runId, event));
      end = normalised.end ?? end;
    }
    if (shutdown.signal.aborted || end === 'failed') return false;
    const status = end === 'rolled-back' ? undefined : await adapter.runStatus(threadId, runId);
    if (status === undefined) return true;
    const waiting =
      normaliser.hasPendingInput() ||
      ((await adapter.threadState(threadId))?.interrupts.length ?? 0) > 0;
    const event = terminalOf(status, waiting);
    if (event) {
      log.append(threadId, runId, {
        method: 'lifecycle',
        namespace: [],
        data: { event, graph_name: graphName },
      });
    }
    return false;
  }

  /**
   * Queues the run's session. A session still queued whose run is gone was rolled back by this
   * run's creation: readers opened from now on leave its events out at once, without waiting
   * for its session (maybe on another replica) to read the run's end.
   */
  async function queue({ threadId, runId }: SessionRun) {
    for (const queued of await log.queuedSessions(threadId)) {
      if ((await adapter.runStatus(threadId, queued)) === undefined) log.leaveOut(threadId, queued);
    }
    await log.queueSession(threadId, runId);
  }

  async function session(run: SessionRun) {
    let rolledBack = false;
    try {
      await log.turn(run.threadId, run.runId, shutdown.signal);
      if (!shutdown.signal.aborted) rolledBack = await stream(run);
    } catch (error) {
      console.warn(`Protocol stream of run ${run.runId} failed: ${String(error)}`);
    } finally {
      log.endSession(run.threadId, run.runId, rolledBack);
    }
  }

  return {
    /**
     * Queues the run's session on its thread (called under the thread's lock once the run is
     * created), then streams it once the sessions queued before it have ended.
     */
    async start(run: SessionRun): Promise<void> {
      await queue(run).catch((error: unknown) => {
        console.warn(`Protocol session of run ${run.runId} not queued: ${String(error)}`);
      });
      const done = session(run);
      running.add(done);
      void done.finally(() => running.delete(done));
    },

    /** Stops every session (shutdown) and waits for them to settle. */
    async close(): Promise<void> {
      shutdown.abort();
      await Promise.allSettled([...running]);
    },
  };
}

export type RunSessions = ReturnType<typeof createRunSessions>;
