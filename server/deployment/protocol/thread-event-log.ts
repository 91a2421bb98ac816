import type { ProtocolEvent, UnnumberedEvent } from './protocol-types';

/** One reader's view of a thread's kept events; see `ThreadEventLog.open`. */
export interface ThreadReader {
  /** Kept events with a `seq` above `after`, oldest first (a page: read again for more). */
  read: (after: number) => Promise<ProtocolEvent[]>;
  /** Resolves when the thread may have new events (at the latest after a recheck interval). */
  next: () => Promise<void>;
  close: () => void;
}

/**
 * A thread's protocol v2 events: numbered with the thread's `seq` across all its runs, kept for
 * replay (`since`, a late reader), read live by any number of readers. In this process by default;
 * in Redis in cluster mode, so every replica numbers, replays and streams a thread alike.
 *
 * The runs of a thread stream one after another in the order they were created: a run's session
 * is queued (`queueSession`, under the thread's lock, right after the run is created) and waits
 * for its `turn` before it appends, then `endSession` hands the turn on. Writes are applied in
 * the order they are made.
 */
export interface ThreadEventLog {
  /** Queues the run's session behind the thread's earlier ones (called under the thread lock). */
  queueSession: (threadId: string, runId: string) => Promise<void>;
  /** The runs whose sessions are queued on the thread (the streaming one first). */
  queuedSessions: (threadId: string) => Promise<string[]>;
  /** Resolves once every session queued before the run's has ended, or `signal` aborts. */
  turn: (threadId: string, runId: string, signal: AbortSignal) => Promise<void>;
  /** Numbers the event with the thread's next `seq` and keeps it. */
  append: (threadId: string, runId: string, event: UnnumberedEvent) => void;
  /**
   * Ends the run's session and hands the turn on. A rolled-back run's events are left out of
   * what readers opened from now on replay (readers already open keep reading them).
   */
  endSession: (threadId: string, runId: string, rolledBack: boolean) => void;
  /** Leaves a rolled-back run's events out of what readers opened from now on replay. */
  leaveOut: (threadId: string, runId: string) => void;
  /** The `seq` of the thread's last event (`applied_through_seq`), 0 before any. */
  lastSeq: (threadId: string) => Promise<number>;
  /** A reader of the thread's events, leaving out the runs rolled back before it opened. */
  open: (threadId: string) => Promise<ThreadReader>;
  /** Stops every wait (shutdown). */
  close: () => void;
}

/** The events a thread keeps for replay (`since`, a late SSE request); older ones are dropped. */
const MAX_KEPT = 10_000;
/** A thread nobody reads and no run streams to is forgotten after this long. */
const IDLE_MS = 10 * 60_000;

interface KeptEvent {
  runId: string;
  event: ProtocolEvent;
}

interface ThreadLog {
  seq: number;
  kept: KeptEvent[];
  rolledBack: Set<string>;
  /** Queued sessions, the one whose turn it is first. */
  sessions: string[];
  readers: number;
  wake: Set<() => void>;
  lastActive: number;
}

/** Every waiter of `log` wakes (a new event, a session's end). */
function wakeAll(log: ThreadLog) {
  const wake = [...log.wake];
  log.wake.clear();
  wake.forEach((resolve) => resolve());
}

/**
 * The in-process thread event log (one server process, the default): each thread's last 10,000
 * events in memory, forgotten when nobody has read it and no run has streamed to it for 10 minutes.
 */
export function createThreadEventLog(idleMs = IDLE_MS): ThreadEventLog {
  const logs = new Map<string, ThreadLog>();
  const shutdown = new AbortController();
  let lastSweep = Date.now();

  function sweep(now: number) {
    if (now - lastSweep < idleMs / 10) return;
    lastSweep = now;
    logs.forEach((log, threadId) => {
      const idle = log.readers === 0 && log.sessions.length === 0;
      if (idle && now - log.lastActive > idleMs) logs.delete(threadId);
    });
  }

  function logOf(threadId: string): ThreadLog {
    sweep(Date.now());
    let log = logs.get(threadId);
    if (!log) {
      log = {
        seq: 0,
        kept: [],
        rolledBack: new Set(),
        sessions: [],
        readers: 0,
        wake: new Set(),
        lastActive: Date.now(),
      };
      logs.set(threadId, log);
    }
    return log;
  }

  /** Resolves at `log`'s next change, or when `signal` aborts. */
  function changed(log: ThreadLog, signal: AbortSignal) {
    return new Promise<void>((resolve) => {
      const done = () => {
        log.wake.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      if (signal.aborted) return resolve();
      log.wake.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  return {
    async queueSession(threadId, runId) {
      const log = logOf(threadId);
      log.sessions.push(runId);
      log.lastActive = Date.now();
    },

    queuedSessions: async (threadId) => [...logOf(threadId).sessions],

    async turn(threadId, runId, signal) {
      const log = logOf(threadId);
      const stop = AbortSignal.any([signal, shutdown.signal]);
      // A session missing from the queue (never queued) streams at once.
      while (!stop.aborted && log.sessions.includes(runId) && log.sessions[0] !== runId) {
        await changed(log, stop);
      }
    },

    append(threadId, runId, { method, namespace, node, data }) {
      const log = logOf(threadId);
      log.seq += 1;
      log.lastActive = Date.now();
      const event: ProtocolEvent = {
        type: 'event',
        event_id: String(log.seq),
        seq: log.seq,
        method,
        params: { namespace, timestamp: Date.now(), ...(node && { node }), data },
      };
      log.kept.push({ runId, event });
      if (log.kept.length > MAX_KEPT) log.kept.splice(0, log.kept.length - MAX_KEPT);
      wakeAll(log);
    },

    endSession(threadId, runId, rolledBack) {
      const log = logOf(threadId);
      log.sessions = log.sessions.filter((queued) => queued !== runId);
      if (rolledBack) log.rolledBack.add(runId);
      log.lastActive = Date.now();
      wakeAll(log);
    },

    leaveOut(threadId, runId) {
      logOf(threadId).rolledBack.add(runId);
    },

    lastSeq: async (threadId) => logOf(threadId).seq,

    async open(threadId) {
      const log = logOf(threadId);
      const leftOut = new Set(log.rolledBack);
      const closed = new AbortController();
      const stop = AbortSignal.any([closed.signal, shutdown.signal]);
      log.readers += 1;
      return {
        read: async (after) =>
          log.kept
            .filter(({ runId, event }) => event.seq > after && !leftOut.has(runId))
            .map(({ event }) => event),
        next: () => changed(log, stop),
        close() {
          if (closed.signal.aborted) return;
          closed.abort();
          log.readers -= 1;
          log.lastActive = Date.now();
        },
      };
    },

    close() {
      shutdown.abort();
    },
  };
}
