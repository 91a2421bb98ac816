import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TimelineStep } from '@/features/playground/model/flow-types';
import { FlowTimeline } from './flow-timeline';

const steps: TimelineStep[] = [
  { kind: 'thread-created', label: 'Thread created', startMs: 0, durationMs: 12, detail: 't-1' },
  { kind: 'run1-started', label: 'Run 1 started', startMs: 12, durationMs: 30, runId: 'run-1' },
  { kind: 'message', label: 'Run 1 · Human: sf?', startMs: 40, run: 1 },
  { kind: 'waited', label: 'Waited 2.0 s', startMs: 42, durationMs: 2001 },
  {
    kind: 'run2-rejected',
    label: 'Run 2 rejected',
    startMs: 2043,
    durationMs: 8,
    detail: '409: busy',
  },
  {
    kind: 'run1-looked-up',
    label: 'Run 1 looked up',
    startMs: 3100,
    durationMs: 5,
    runId: 'run-1',
    detail: 'status success',
  },
];

describe('FlowTimeline', () => {
  it('lists each step with its relative start, label, duration, run id and detail', () => {
    render(<FlowTimeline steps={steps} />);
    const items = within(screen.getByRole('list', { name: 'Timeline' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '+0.00 sThread created12 mst-1',
      '+0.01 sRun 1 started30 msrun-1',
      '+0.04 sRun 1 · Human: sf?',
      '+0.04 sWaited 2.0 s2.0 s',
      '+2.04 sRun 2 rejected8 ms409: busy',
      '+3.10 sRun 1 looked up5 msrun-1 · status success',
    ]);
  });

  it('shows the list busy, with a pending line, while the flow runs', () => {
    render(<FlowTimeline steps={steps.slice(0, 2)} running />);
    const list = screen.getByRole('list', { name: 'Timeline' });
    expect(list).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Streaming from the deployment…')).toBeInTheDocument();
  });

  it('shows a pending line even before the first step ends', () => {
    render(<FlowTimeline steps={[]} running />);
    expect(screen.getByText('Streaming from the deployment…')).toBeInTheDocument();
  });

  it('says there is nothing yet when idle and empty', () => {
    render(<FlowTimeline steps={[]} />);
    expect(screen.getByText('No steps yet.')).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Timeline' })).toBeNull();
  });
});
