import type { Stride } from '@contracts/usage/usage-schema';
import { createBucketGrid } from '@contracts/usage/bucket-grid';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageConnectionProvider } from '../api/usage-connection';
import { resolveUsageView } from '../model/resolve-usage-view';
import { buildUsageMatrix } from '../model/usage-matrix';
import { ExportCsvButton } from './export-csv-button';

const gridOf = (range: { startMs: number; endMs: number }, stride: Stride) =>
  createBucketGrid(range.startMs, range.endMs, stride);

const view = resolveUsageView(
  {
    period: '1y',
    from: null,
    to: null,
    aggregation: 'daily',
    groupBy: 'workspace',
    workspaces: null,
  },
  Date.parse('2026-11-22T10:00:00Z'),
  ['a0000000-0000-4000-8000-000000000001'],
);

function renderButton() {
  if (!view) throw new Error('no view');
  const matrix = buildUsageMatrix([], gridOf(view.range, view.stride), view.groupBy);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <UsageConnectionProvider>
        <ExportCsvButton view={view} matrix={matrix} pricePer1k={2.5} />
      </UsageConnectionProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ExportCsvButton', () => {
  it('shows progress over the windows, then a readable error when the server refuses', async () => {
    const user = userEvent.setup();
    let calls = 0;
    let release: () => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        calls += 1;
        if (calls === 1) return new Response('Time Bucket Start\r\n', { status: 200 });
        await new Promise<void>((resolve) => (release = resolve));
        return new Response('{"detail":"Invalid API key."}', { status: 401 });
      }),
    );
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Exporting… 1 of 12 parts')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    release();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Export failed: The API key was not accepted (401). Invalid API key.',
    );
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });
});
