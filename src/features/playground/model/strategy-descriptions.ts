import type { MultitaskStrategy } from '@contracts/deployment';
import type { RunFateKind } from './run-fate';

/** The strategy a deployment applies when a run is created without one (Agent Server docs). */
export { DEFAULT_MULTITASK_STRATEGY as SERVER_DEFAULT_STRATEGY } from '@contracts/deployment';

/**
 * What each strategy does to the run already active on the thread, in the words of the Agent
 * Server's double-texting docs, for the form's hint.
 */
export const STRATEGY_DESCRIPTIONS: Record<MultitaskStrategy, string> = {
  rollback:
    'Halts run 1 and reverts all of its progress, its input included; run 2 then runs as if it were the first message.',
  interrupt:
    'Halts run 1 and keeps its progress up to that point; run 2 inserts its input and continues from there.',
  reject: 'Rejects run 2 (409) while run 1 is in progress; run 1 runs to completion.',
  enqueue:
    'Lets run 1 finish; run 2 is queued and runs after it. The default when no strategy is sent.',
};

/** What run 1's fate means for the messages shown, when there is something to point out. */
export const FATE_EXPLANATIONS: Partial<Record<RunFateKind, string>> = {
  deleted: "Nothing run 1 wrote survives: the thread holds run 2's messages only.",
  interrupted: "Run 1's partial messages stay in the thread, followed by run 2's.",
  completed: "Run 1 was kept and went on: the thread shows run 1's answer only.",
  'finished-then-run-2': "Both runs ran in turn: run 1's messages, then run 2's.",
};
