import type { Client } from '@langchain/langgraph-sdk';
import type { MultitaskStrategy } from '@contracts/deployment';
import type { DoubleTextOutcome } from '@/features/playground/model/flow-types';
import { FlowCancelledError } from '@/features/playground/model/flow-error';
import { runDoubleText, type DoubleTextRequest } from './run-double-text';

/** The four strategies in the order the comparison shows them. */
export const COMPARED_STRATEGIES: readonly MultitaskStrategy[] = [
  'rollback',
  'interrupt',
  'reject',
  'enqueue',
];

export type StrategyResult =
  | { strategy: MultitaskStrategy; status: 'done'; outcome: DoubleTextOutcome }
  | { strategy: MultitaskStrategy; status: 'failed'; error: unknown };

interface CompareOptions {
  client: Client;
  request: Omit<DoubleTextRequest, 'strategy'>;
  signal: AbortSignal;
}

/**
 * The same double-text on four fresh threads at once, one per strategy. One strategy failing does
 * not hide the others; a cancel stops them all.
 */
export async function compareStrategies({
  client,
  request,
  signal,
}: CompareOptions): Promise<StrategyResult[]> {
  const results = await Promise.all(
    COMPARED_STRATEGIES.map(async (strategy): Promise<StrategyResult> => {
      try {
        const outcome = await runDoubleText({
          ...request,
          strategy,
          client,
          signal,
          joinRun2: 'after-run-1',
        });
        return { strategy, status: 'done', outcome };
      } catch (error) {
        return { strategy, status: 'failed', error };
      }
    }),
  );
  if (signal.aborted) throw new FlowCancelledError();
  return results;
}
