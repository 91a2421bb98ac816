import type { MultitaskStrategy, RunStatus } from '@contracts/deployment';
import type { ThreadMessage } from './thread-messages';
import type { RunFate } from './run-fate';

/** The moments of a double-text flow, in the order they can happen. */
export type StepKind =
  | 'thread-created'
  | 'run1-created'
  | 'waited'
  | 'run2-created'
  | 'run2-rejected'
  | 'run2-finished'
  | 'run1-finished'
  | 'state-read'
  | 'run1-looked-up';

/** One line of the timeline: when the call started (ms after the flow started) and how long it took. */
export interface TimelineStep {
  kind: StepKind;
  label: string;
  startMs: number;
  durationMs: number;
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

export interface DoubleTextOutcome {
  strategy: MultitaskStrategy;
  threadId: string;
  run1Id: string;
  run2Id: string | null;
  run2Status: RunStatus | string | null;
  rejection: Rejection | null;
  run1Lookup: RunLookup;
  fate: RunFate;
  steps: TimelineStep[];
  messages: ThreadMessage[];
  rawState: unknown;
  totalMs: number;
}
