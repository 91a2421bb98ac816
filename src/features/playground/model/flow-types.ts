import type { MultitaskStrategy, RunStatus } from '@contracts/deployment';
import type { RunNumber, StreamedMessage } from './streamed-messages';
import type { ThreadMessage } from './thread-messages';
import type { RunFate } from './run-fate';

/** The moments of a double-text flow. `message` is one message arriving on a run's stream. */
export type StepKind =
  | 'thread-created'
  | 'run1-started'
  | 'message'
  | 'waited'
  | 'run2-sent'
  | 'run2-started'
  | 'run2-rejected'
  | 'run1-ended'
  | 'run2-ended'
  | 'state-read'
  | 'run1-looked-up';

/**
 * One line of the timeline: when it happened (ms after the flow started) and, for a call, how
 * long it took. Instant moments (a streamed message, run 2 sent, a stream ending) have no duration.
 */
export interface TimelineStep {
  kind: StepKind;
  label: string;
  startMs: number;
  durationMs?: number;
  run?: RunNumber;
  runId?: string;
  detail?: string;
}

/** What the deployment answered when asked for run 1 at the end. */
export type RunLookup =
  | { kind: 'found'; status: RunStatus | string }
  | { kind: 'http-error'; status: number; message: string };

/** Why the deployment refused run 2 (the `reject` strategy). */
export interface Rejection {
  status: number;
  message: string;
}

/** How a run's stream closed: after its last event, or with an `error` event. */
export type StreamEnd = { kind: 'closed' } | { kind: 'error'; error: string; message: string };

export interface DoubleTextOutcome {
  strategy: MultitaskStrategy;
  threadId: string;
  run1Id: string;
  run2Id: string | null;
  run2Status: RunStatus | string | null;
  rejection: Rejection | null;
  run1Lookup: RunLookup;
  run1End: StreamEnd;
  fate: RunFate;
  run2Fate: RunFate;
  steps: TimelineStep[];
  /** Every message as it first arrived on run 1's or run 2's stream. */
  streamed: StreamedMessage[];
  messages: ThreadMessage[];
  rawState: unknown;
  /** The graph the thread ran (`graph_id` of its metadata, as the platform writes it), if known. */
  graphId: string | null;
  totalMs: number;
}
