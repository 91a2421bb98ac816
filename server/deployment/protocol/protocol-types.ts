/**
 * Protocol v2 on the wire, as the official server (`@langchain/langgraph-api` 1.5.1) and the
 * SDK's `ThreadStream` speak it (`@langchain/protocol`): events, command answers, filters.
 */

/** The error codes a command answer names (`@langchain/protocol` `ErrorCode`). */
export type ProtocolErrorCode =
  | 'invalid_argument'
  | 'unknown_command'
  | 'unknown_error'
  | 'no_such_run'
  | 'no_such_subscription'
  | 'no_such_interrupt'
  | 'not_supported';

/** One event frame: `seq` counts per thread across its runs; `event_id` is `String(seq)`. */
export interface ProtocolEvent {
  type: 'event';
  event_id: string;
  seq: number;
  method: string;
  params: {
    namespace: string[];
    timestamp: number;
    node?: string;
    data: unknown;
  };
}

export interface ResponseMeta {
  thread_id: string;
  /** The thread's last event `seq` when the command was applied. */
  applied_through_seq: number;
}

export type CommandResponse =
  | { type: 'success'; id: number; result: Record<string, unknown>; meta: ResponseMeta }
  | {
      type: 'error';
      id: number | null;
      error: ProtocolErrorCode;
      message: string;
      meta?: ResponseMeta;
    };

/** What an SSE request's body or a WebSocket subscription selects. */
export interface EventFilter {
  channels: string[];
  namespaces?: string[][];
  depth?: number;
  since?: number;
}

/** An event before the thread numbers it: what a run session produces. */
export interface UnnumberedEvent {
  method: string;
  namespace: string[];
  node?: string;
  data: unknown;
}
