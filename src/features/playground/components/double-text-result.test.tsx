import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeOutcome, weatherRun } from '@/features/playground/testing/make-outcome';
import { DoubleTextResult } from './double-text-result';

const outcome = makeOutcome;

describe('DoubleTextResult', () => {
  it('states run 1 deleted with its badge, id and what that means for the thread', () => {
    render(<DoubleTextResult outcome={outcome({})} />);
    // A rollback deleting run 1 is the strategy working: drawn as success, not alarm red.
    expect(screen.getByText('Deleted')).toHaveClass('pg-badge-success');
    expect(screen.getByText(/deleted — the deployment answers 404/)).toHaveTextContent(
      'Run 1 run-1: deleted — the deployment answers 404',
    );
    expect(screen.getByText(/the thread holds run 2's messages only/)).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the thread in "Thread messages" and lists what run 1 streamed as erased, with why', () => {
    render(<DoubleTextResult outcome={outcome({})} />);
    const thread = screen.getByRole('list', { name: 'Thread messages' });
    expect(thread.querySelectorAll(':scope > li')).toHaveLength(4);
    expect(thread).not.toHaveTextContent('sf');
    const erased = screen.getByRole('list', { name: 'Erased messages' });
    expect(erased.querySelectorAll(':scope > li')).toHaveLength(2);
    expect(erased).toHaveTextContent("what's the weather in sf?");
    expect(erased).toHaveTextContent('Run 1 · erased');
    expect(screen.getByText(/rolled back — the deployment deleted run 1/)).toBeVisible();
  });

  it('after a reject: run 2 refused (409), run 1 completed, nothing erased', () => {
    const sf = weatherRun('sf', 'r1');
    render(
      <DoubleTextResult
        outcome={outcome({
          strategy: 'reject',
          rejection: { status: 409, message: 'thread busy' },
          run1Lookup: { kind: 'found', status: 'success' },
          run2Id: null,
          run2Status: null,
          streamed: sf.map((message) => ({ run: 1, atMs: 0, key: message.id ?? '', message })),
          messages: sf,
        })}
      />,
    );
    expect(screen.getByText('Refused (409)')).toBeVisible();
    expect(screen.getByText(/Run 2: refused \(409\): thread busy/)).toBeVisible();
    expect(screen.getByText(/completed — run 2 was refused \(409\)/)).toBeVisible();
    expect(screen.queryByText('Rejected')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Erased messages' })).toBeNull();
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
