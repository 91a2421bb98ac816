import { matchesSubscription } from '@langchain/langgraph/stream';
import type { EventFilter, ProtocolEvent, UnnumberedEvent } from './protocol-types';

/** A connection reading a thread's events: an SSE response or a WebSocket subscription. */
export interface EventSink {
  /** Whether the connection wants `event` (its filter, or one of its subscriptions). */
  matches: (event: ProtocolEvent) => boolean;
  send: (event: ProtocolEvent) => void;
  /** Ends the connection (server shutdown). */
  close: () => void;
}

/** The events a thread keeps for replay (`since`, a late SSE request); older ones are dropped. */
const MAX_BUFFERED = 10_000;
/** A thread nobody reads and no run streams to is forgotten after this long. */
const IDLE_MS = 10 * 60_000;

type Subscription = Parameters<typeof matchesSubscription>[1];

/**
 * Whether `event` is one `filter` selects (channel, namespace prefix and depth, `since`), by
 * LangGraph's own matcher, which the official server and the SDK use too. The filter's channels
 * were checked by the request schemas (`isSupportedChannel`).
 */
export const matchesFilter = (filter: EventFilter, event: ProtocolEvent) =>
  matchesSubscription(event, filter as Subscription);

/**
 * One thread's protocol events: numbered with the thread's `seq` (across all its runs), kept
 * for replay, and handed to every attached sink whose filter matches. Delivery is synchronous
 * (a sink queues what it writes), so replay and live events never interleave out of order.
 */
function createThreadChannel(threadId: string) {
  let seq = 0;
  const buffer: Array<{ runId: string; event: ProtocolEvent }> = [];
  const sinks = new Set<EventSink>();
  let sessions = 0;
  let lastActive = Date.now();

  return {
    threadId,
    /** The `seq` of the thread's last event (`applied_through_seq`). */
    seq: () => seq,

    push(runId: string, { method, namespace, node, data }: UnnumberedEvent): ProtocolEvent {
      seq += 1;
      lastActive = Date.now();
      const event: ProtocolEvent = {
        type: 'event',
        event_id: String(seq),
        seq,
        method,
        params: { namespace, timestamp: Date.now(), ...(node && { node }), data },
      };
      buffer.push({ runId, event });
      if (buffer.length > MAX_BUFFERED) buffer.splice(0, buffer.length - MAX_BUFFERED);
      sinks.forEach((sink) => {
        if (sink.matches(event)) sink.send(event);
      });
      return event;
    },

    /** Replays the kept events the sink's filter selects, then delivers new ones to it. */
    attach(sink: EventSink): () => void {
      buffer.forEach(({ event }) => {
        if (sink.matches(event)) sink.send(event);
      });
      sinks.add(sink);
      lastActive = Date.now();
      return () => {
        sinks.delete(sink);
        lastActive = Date.now();
      };
    },

    /** The kept events that `filter` selects (a WebSocket subscription's replay). */
    replay: (filter: EventFilter) =>
      buffer.map(({ event }) => event).filter((event) => matchesFilter(filter, event)),

    /** A rolled-back run leaves no event behind for later readers. */
    forgetRun(runId: string): void {
      for (let i = buffer.length - 1; i >= 0; i -= 1) {
        if (buffer[i]?.runId === runId) buffer.splice(i, 1);
      }
    },

    /** Counts the run sessions streaming into the thread (an idle thread may be forgotten). */
    sessionStarted: () => void (sessions += 1),
    sessionEnded: () => {
      sessions -= 1;
      lastActive = Date.now();
    },
    idleSince: (now: number) => (sinks.size === 0 && sessions === 0 ? now - lastActive : 0),
    closeSinks: () => [...sinks].forEach((sink) => sink.close()),
  };
}

export type ThreadChannel = ReturnType<typeof createThreadChannel>;

/** Every thread's channel, created on first use and forgotten when idle for `idleMs`. */
export function createThreadChannels(idleMs = IDLE_MS) {
  const channels = new Map<string, ThreadChannel>();
  let lastSweep = Date.now();

  function sweep(now: number) {
    if (now - lastSweep < idleMs / 10) return;
    lastSweep = now;
    channels.forEach((channel, threadId) => {
      if (channel.idleSince(now) > idleMs) channels.delete(threadId);
    });
  }

  return {
    of(threadId: string): ThreadChannel {
      sweep(Date.now());
      let channel = channels.get(threadId);
      if (!channel) {
        channel = createThreadChannel(threadId);
        channels.set(threadId, channel);
      }
      return channel;
    },
    /** Ends every open event stream (shutdown). */
    closeAll(): void {
      channels.forEach((channel) => channel.closeSinks());
    },
  };
}

export type ThreadChannels = ReturnType<typeof createThreadChannels>;
