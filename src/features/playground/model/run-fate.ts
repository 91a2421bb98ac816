import type { MultitaskStrategy } from '@contracts/deployment';
import type { Rejection, RunLookup } from './flow-types';

export type RunFateKind =
  | 'deleted'
  | 'interrupted'
  | 'completed'
  | 'refused'
  | 'run-2-finished'
  | 'finished-then-run-2'
  | 'finished-before-run-2'
  | 'failed'
  | 'still-running'
  | 'unknown';

export type FateTone = 'danger' | 'warning' | 'success' | 'neutral';

export interface RunFate {
  kind: RunFateKind;
  /** One or two words for the badge. */
  badge: string;
  /** The sentence a demo audience reads. */
  words: string;
  tone: FateTone;
}

interface FateInput {
  strategy: MultitaskStrategy;
  rejection: Rejection | null;
  run1Lookup: RunLookup;
}

/**
 * What became of run 1, from how run 2 was received and what a final GET of run 1 answered. The
 * tone says whether the strategy did what it promises: a rollback's deleted run 1 is that
 * strategy working (success), not an alarm; the same fate under another strategy is.
 */
export function classifyRunFate({ strategy, rejection, run1Lookup }: FateInput): RunFate {
  if (run1Lookup.kind === 'http-error') {
    if (run1Lookup.status === 404) {
      return {
        kind: 'deleted',
        badge: 'Deleted',
        words: 'deleted — the deployment answers 404',
        tone: strategy === 'rollback' ? 'success' : 'danger',
      };
    }
    return {
      kind: 'unknown',
      badge: 'Unknown',
      words: `could not be looked up (${run1Lookup.status}, ${run1Lookup.message})`,
      tone: 'neutral',
    };
  }
  switch (run1Lookup.status) {
    case 'interrupted':
      return {
        kind: 'interrupted',
        badge: 'Interrupted',
        words: 'interrupted',
        tone: strategy === 'interrupt' ? 'success' : 'warning',
      };
    case 'success':
      if (rejection) {
        return {
          kind: 'completed',
          badge: 'Completed',
          words: `completed — run 2 was refused (${rejection.status})`,
          tone: 'success',
        };
      }
      return strategy === 'enqueue'
        ? {
            kind: 'finished-then-run-2',
            badge: 'Finished first',
            words: 'finished, then run 2 ran',
            tone: 'success',
          }
        : {
            kind: 'finished-before-run-2',
            badge: 'Finished',
            words: 'finished before the second message arrived — try a shorter delay',
            // The demo showed nothing of the strategy: worth a look, not a failure.
            tone: 'warning',
          };
    case 'error':
    case 'timeout':
      return {
        kind: 'failed',
        badge: 'Failed',
        words: `ended with status ${run1Lookup.status}`,
        tone: 'danger',
      };
    case 'pending':
    case 'running':
      return { kind: 'still-running', badge: 'Running', words: 'still running', tone: 'neutral' };
    default:
      return {
        kind: 'unknown',
        badge: 'Unknown',
        words: `has status ${run1Lookup.status}`,
        tone: 'neutral',
      };
  }
}

/** What became of run 2: refused (the `reject` strategy), or the status it ended with. */
export function classifyRun2Fate(
  rejection: Rejection | null,
  run2Status: RunLookup['status'] | null,
): RunFate {
  if (rejection) {
    return {
      kind: 'refused',
      badge: `Refused (${rejection.status})`,
      words: `refused (${rejection.status}): ${rejection.message}`,
      tone: 'warning',
    };
  }
  if (run2Status === 'success') {
    return { kind: 'run-2-finished', badge: 'Finished', words: 'finished', tone: 'success' };
  }
  return {
    kind: run2Status === 'error' ? 'failed' : 'unknown',
    badge: run2Status === 'error' ? 'Failed' : 'Unknown',
    words: `ended with status ${run2Status ?? 'unknown'}`,
    tone: run2Status === 'error' ? 'danger' : 'neutral',
  };
}
