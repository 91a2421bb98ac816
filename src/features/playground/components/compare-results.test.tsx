import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { StrategyResult } from '@/features/playground/api/compare-strategies';
import type { RunLookup } from '@/features/playground/model/flow-types';
import { FlowError } from '@/features/playground/model/flow-error';
import { makeOutcome, weatherRun } from '@/features/playground/testing/make-outcome';
import { CompareResults } from './compare-results';

function done(
  strategy: 'rollback' | 'enqueue',
  run1Lookup: RunLookup,
  count: number,
): StrategyResult {
  const messages = [...weatherRun('sf', 'r1'), ...weatherRun('nyc', 'r2')].slice(-count);
  return {
    strategy,
    status: 'done',
    outcome: makeOutcome({ strategy, run1Lookup, messages, totalMs: 1234 }),
  };
}

describe('CompareResults', () => {
  it('shows each strategy with both fates, its thread as a list, erased messages and failures', () => {
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
    expect(rollback).toHaveTextContent('Duration1.2 s');
    expect(rollback).toHaveTextContent('Run 2Finished');
    const threadOf = (strategy: string) =>
      within(within(list).getByRole('listitem', { name: strategy })).getByRole('list', {
        name: 'Thread messages',
      });
    expect(threadOf('rollback').querySelectorAll(':scope > li')).toHaveLength(4);
    expect(threadOf('enqueue').querySelectorAll(':scope > li')).toHaveLength(8);
    expect(within(rollback).getByRole('list', { name: 'Erased messages' })).toHaveTextContent(
      "what's the weather in sf?",
    );
    expect(within(list).getByRole('listitem', { name: 'enqueue' })).toHaveTextContent(
      'finished, then run 2 ran',
    );
    expect(within(rollback).getByRole('list', { name: 'Timeline, rollback' })).toBeVisible();
    expect(within(list).getByRole('listitem', { name: 'reject' })).toHaveTextContent(
      'Deployment unreachable',
    );
  });
});
