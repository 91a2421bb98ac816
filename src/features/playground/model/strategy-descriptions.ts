import type { MultitaskStrategy } from '@contracts/deployment';
import type { RunFateKind } from './run-fate';

/** What each strategy does to the run already active on the thread, for the form's hint. */
export const STRATEGY_DESCRIPTIONS: Record<MultitaskStrategy, string> = {
  rollback: 'Run 1 is interrupted and deleted with everything it wrote; run 2 starts clean.',
  interrupt: 'Run 1 is stopped but kept, with what it wrote so far; run 2 continues from there.',
  reject: 'Run 2 is refused while run 1 is busy.',
  enqueue:
    'Run 2 waits and starts after run 1 has finished (the default when no strategy is sent).',
};

/** What run 1's fate means for the messages shown, when there is something to point out. */
export const FATE_EXPLANATIONS: Partial<Record<RunFateKind, string>> = {
  deleted: "Nothing run 1 wrote survives: the thread holds run 2's messages only.",
  interrupted: "Run 1's partial messages stay in the thread, followed by run 2's.",
  rejected: "Run 1 was kept and went on: the thread shows run 1's answer only.",
  'finished-then-run-2': "Both runs ran in turn: run 1's messages, then run 2's.",
};
