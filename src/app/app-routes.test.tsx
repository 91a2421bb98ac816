import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render-app';

describe('app routes', () => {
  it.each(['/', '/settings', '/settings/billing-and-usage'])(
    '%s lands on the Granular Usage tab',
    async (url) => {
      const { location } = renderApp(url);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Billing and Usage' }),
      ).toBeInTheDocument();
      expect(location().pathname).toBe('/settings/billing-and-usage/granular-usage');
      expect(screen.getByRole('heading', { level: 2, name: 'Granular Usage' })).toBeVisible();
      // One tab bar (the billing domains); the sections are links, the current one marked.
      expect(screen.getAllByRole('tablist')).toHaveLength(1);
      const sections = screen.getByRole('navigation', { name: 'Billing and Usage sections' });
      expect(within(sections).getByRole('link', { name: 'Granular Usage' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      expect(within(sections).getByRole('link', { name: 'Invoices' })).toHaveAttribute(
        'href',
        '/settings/billing-and-usage/invoices',
      );
      expect(within(sections).getByRole('link', { name: 'Audit log' })).toHaveAttribute(
        'href',
        '/settings/billing-and-usage/audit-log',
      );
    },
  );

  it("a shorter address keeps the link's view: the query survives the redirect", async () => {
    const { location } = renderApp('/settings/billing-and-usage?period=7d&group_by=project');
    expect(await screen.findByRole('combobox', { name: 'Time range' })).toHaveDisplayValue(
      'Last 7 days',
    );
    expect(screen.getByRole('combobox', { name: 'Group by' })).toHaveDisplayValue('Project');
    expect(location().pathname).toBe('/settings/billing-and-usage/granular-usage');
    expect(location().search).toBe('?period=7d&group_by=project');
  });

  it('the Invoices section loads as its own chunk, its month in the URL', async () => {
    renderApp('/settings/billing-and-usage/invoices?month=2026-01');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Invoices' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Month (UTC)' })).toHaveDisplayValue(
      'January 2026',
    );
  });

  it('an unknown URL shows the not-found page with the path', async () => {
    renderApp('/settings/nope');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('/settings/nope')).toBeInTheDocument();
  });

  it('the rollback playground loads as its own page', async () => {
    renderApp('/tools/rollback-playground');
    // A lazy route: its chunk (with react-hook-form and the playground's form) is transformed on
    // first import, which takes seconds on a busy machine.
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Rollback playground' },
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
  });
});
