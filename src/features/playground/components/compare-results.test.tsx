import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StrategyResult } from '@/features/playground/api/compare-strategies';
import type { DoubleTextOutcome, RunLookup } from '@/features/playground/model/flow-types';
import { FlowError } from '@/features/playground/model/flow-error';
import { classifyRunFate } from '@/features/playground/model/run-fate';
import { CompareResults } from './compare-results';

function done(
  strategy: 'rollback' | 'enqueue',
  run1Lookup: RunLookup,
  count: number,
): StrategyResult {
  const outcome: DoubleTextOutcome = {
    strategy,
    threadId: `thread-${strategy}`,
    run1Id: 'run-1',
    run2Id: 'run-2',
    run2Status: 'success',
    rejection: null,
    run1Lookup,
    fate: classifyRunFate({ strategy, rejection: null, run1Lookup }),
    steps: [],
    messages: Array.from({ length: count }, () => ({ type: 'human', content: 'x' }) as const),
    rawState: {},
    totalMs: 1234,
  };
  return { strategy, status: 'done', outcome };
}

describe('CompareResults', () => {
  it('shows each strategy with run 1 fate, message count and duration, failures in words', () => {
    const unreachable = Object.assign(new Error('Failed to fetch'), { name: 'TypeError' });
    render(
      <CompareResults
        connection={{ kind: 'embedded' }}
        assistantId="agent"
        results={[
          done('rollback', { kind: 'http-error', status: 404, message: 'gone' }, 4),
          done('enqueue', { kind: 'found', status: 'success' }, 8),
          {
            strategy: 'reject',
            status: 'failed',
            error: new FlowError('thread-create', unreachable),
          },
        ]}
      />,
    );
    const list = screen.getByRole('list', { name: 'Strategy outcomes' });
    const rollback = within(list).getByRole('listitem', { name: 'rollback' });
    expect(rollback).toHaveTextContent('Deleted');
    expect(rollback).toHaveTextContent('Messages4');
    expect(rollback).toHaveTextContent('Duration1.2 s');
    expect(within(list).getByRole('listitem', { name: 'enqueue' })).toHaveTextContent(
      'finished, then run 2 ranMessages8',
    );
    expect(within(list).getByRole('listitem', { name: 'reject' })).toHaveTextContent(
      'Deployment unreachable',
    );
  });
});
