import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { DoubleTextOutcome } from '@/features/playground/model/flow-types';
import { classifyRunFate } from '@/features/playground/model/run-fate';
import { DoubleTextResult } from './double-text-result';

function outcome(changes: Partial<DoubleTextOutcome>): DoubleTextOutcome {
  const run1Lookup = { kind: 'http-error', status: 404, message: 'not found' } as const;
  return {
    strategy: 'rollback',
    threadId: 'thread-1',
    run1Id: 'run-1',
    run2Id: 'run-2',
    run2Status: 'success',
    rejection: null,
    run1Lookup,
    fate: classifyRunFate({ strategy: 'rollback', rejection: null, run1Lookup }),
    steps: [{ kind: 'thread-created', label: 'Thread created', startMs: 0, durationMs: 5 }],
    messages: [{ type: 'human', content: 'nyc?' }],
    rawState: { values: { messages: [{ type: 'human', content: 'nyc?' }] } },
    totalMs: 1500,
    ...changes,
  };
}

describe('DoubleTextResult', () => {
  it('states run 1 deleted with its badge, id and what that means for the thread', () => {
    render(<DoubleTextResult outcome={outcome({})} />);
    expect(screen.getByText('Deleted')).toHaveClass('pg-badge-danger');
    expect(screen.getByText(/deleted — the deployment answers 404/)).toHaveTextContent(
      'Run 1 run-1: deleted — the deployment answers 404',
    );
    expect(screen.getByText(/the thread holds run 2's messages only/)).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('raises an alert when run 2 itself failed', () => {
    render(<DoubleTextResult outcome={outcome({ run2Status: 'error' })} />);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Run 2 failed on the deployment: it ended with status error.',
    );
  });

  it('shows the raw state only on request, and hides it again', async () => {
    const user = userEvent.setup();
    render(<DoubleTextResult outcome={outcome({})} />);
    const toggle = screen.getByRole('button', { name: 'Show raw thread state' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/"values"/)).toBeNull();

    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide raw thread state' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(screen.getByText(/"values"/)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Hide raw thread state' }));
    expect(screen.queryByText(/"values"/)).toBeNull();
  });
});
