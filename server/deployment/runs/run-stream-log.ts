import type { RunEvents } from './run-events';

/** One server-sent event of a run: `id` is its index in the run's log, as the platform numbers them. */
export interface RunStreamEvent {
  id: string;
  event: string;
  data: unknown;
}

interface RunLog {
  events: RunStreamEvent[];
  done: boolean;
  /** The run's final state values, for a stateless wait whose thread is gone by then. */
  result?: unknown;
  wake: Set<() => void>;
}

/**
 * Where a run's events go and are read from: in this process (one replica, the default), or in
 * Redis in cluster mode, so any replica streams a run whichever executes it. Writes are
 * fire-and-forget but applied in the order they are made; reads answer asynchronously.
 */
export interface RunStreamLog {
  /** Whether the run has a log (open, or finished within the retention). */
  has: (runId: string) => Promise<boolean>;
  /** Starts a run's log; events published before a reader joins stay for it to read. */
  open: (runId: string) => void;
  /**
   * `attempt`: the start of the run the executing copy writes for (cluster mode). Once a later
   * attempt has written its `metadata`, an older attempt's writes (a copy on a replica taken for
   * dead, not yet told) are refused, so readers see one copy's events. Without it: a write about
   * the run as a whole (its settling by another replica), always taken.
   */
  publish: (runId: string, event: string, data: unknown, attempt?: number) => void;
  /** Ends the run's stream: readers get what is left, then their stream closes. */
  close: (runId: string, result?: unknown, attempt?: number) => void;
  /** Ends the stream and forgets its events (a rolled-back run leaves nothing behind). */
  discard: (runId: string) => void;
  /** The run's events from index `from` until its stream closes or `signal` aborts. */
  read: (runId: string, from: number, signal?: AbortSignal) => AsyncIterable<RunStreamEvent>;
  /** Resolves once the run's stream has ended (at once if there is none). */
  ended: (runId: string) => Promise<void>;
  /** The run's final state values, for a stateless wait whose thread is gone by then. */
  result: (runId: string) => Promise<unknown>;
  /** The data of the run's `error` event (`{error, message}`), while its log is kept. */
  errorOf: (runId: string) => Promise<unknown>;
  /** Ends every stream read here (shutdown), so no HTTP response is left open. */
  closeAll: () => void;
}

/**
 * Ends a rolled-back run once it is deleted: a client streaming the run learns at once why its
 * stream ends (`RunRolledBack`), then the run's events are forgotten with it, and its joins (and
 * a replica waiting for its stop) learn it is gone.
 */
export function endRolledBack(streams: RunStreamLog, events: RunEvents, runId: string): void {
  streams.publish(runId, 'error', {
    error: 'RunRolledBack',
    message: `Run ${runId} was rolled back: it and everything it wrote were deleted.`,
  });
  streams.discard(runId);
  events.notify(runId, { gone: true });
}

/**
 * The data of the `error` event that ends a stream which may have lost events (the store of its
 * log was away or restarted empty): the client learns its stream is incomplete, never a clean
 * end with events missing; the run itself goes on, and its thread's state holds what it wrote.
 */
export function streamInterrupted(runId: string, reason: string) {
  return {
    error: 'StreamInterrupted',
    message: `The event stream of run ${runId} was interrupted (${reason}); events may be missing: read the run and its thread's state.`,
  };
}

/** How long a finished run's events stay readable, for late joins and `Last-Event-ID` resumes. */
const RETAIN_FINISHED_MS = 60_000;

/**
 * The event log of every executing run, fanned out to any number of readers. Each reader reads
 * from a position of its own (from the start, or after `Last-Event-ID` on a resume), so several clients can stream one run at once and none steals another's events.
 */
export function createRunStreamLog(retainMs = RETAIN_FINISHED_MS): RunStreamLog {
  const logs = new Map<string, RunLog>();

  function logOf(runId: string): RunLog {
    let log = logs.get(runId);
    if (!log) {
      log = { events: [], done: false, wake: new Set() };
      logs.set(runId, log);
    }
    return log;
  }

  function wakeReaders(log: RunLog) {
    const wake = [...log.wake];
    log.wake.clear();
    wake.forEach((resolve) => resolve());
  }

  const streamLog: RunStreamLog = {
    has: async (runId: string) => logs.has(runId),

    open(runId: string): void {
      logOf(runId);
    },

    publish(runId: string, event: string, data: unknown): void {
      const log = logs.get(runId);
      if (!log || log.done) return;
      log.events.push({ id: String(log.events.length), event, data });
      wakeReaders(log);
    },

    close(runId: string, result?: unknown): void {
      const log = logs.get(runId);
      if (!log || log.done) return;
      log.done = true;
      log.result = result;
      wakeReaders(log);
      const timer = setTimeout(() => {
        if (logs.get(runId) === log) logs.delete(runId);
      }, retainMs);
      timer.unref();
    },

    discard(runId: string): void {
      const kept = logs.get(runId);
      if (kept && !kept.done) streamLog.close(runId);
      logs.delete(runId);
    },

    async *read(runId: string, from: number, signal?: AbortSignal): AsyncGenerator<RunStreamEvent> {
      const log = logs.get(runId);
      if (!log) return;
      let next = Math.max(0, from);
      let wakeUp = () => {};
      const onAbort = () => wakeUp();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        while (!signal?.aborted) {
          while (next < log.events.length) {
            yield log.events[next] as RunStreamEvent;
            next += 1;
          }
          if (log.done) return;
          await new Promise<void>((resolve) => {
            wakeUp = resolve;
            log.wake.add(resolve);
          });
        }
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },

    async ended(runId: string): Promise<void> {
      const log = logs.get(runId);
      while (log && !log.done) await new Promise<void>((resolve) => log.wake.add(resolve));
    },

    result: async (runId: string) => logs.get(runId)?.result,

    errorOf: async (runId: string) =>
      logs.get(runId)?.events.findLast((e) => e.event === 'error')?.data,

    closeAll(): void {
      [...logs.keys()].forEach((runId) => streamLog.close(runId));
    },
  };
  return streamLog;
}
