import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { RollbackPlayground } from './rollback-playground';

/** Answers `/_console/config`; any other request fails the test (the form must not send one). */
function stubServer(deployment: { source: 'embedded' | 'remote'; upstream: string | null }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    if (String(input) === '/_console/config') {
      const usage = { source: 'embedded', upstream: null, deploymentMode: 'cloud' };
      return Response.json({ usage, deployment });
    }
    throw new Error(`unexpected request: ${String(input)}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The playground at `/tools/rollback-playground<search>`, on the page's own URL as in the app. */
function renderPlayground(search = '') {
  window.history.replaceState(null, '', `/tools/rollback-playground${search}`);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RollbackPlayground />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RollbackPlayground', () => {
  it('opens with the issue defaults under the contract names', async () => {
    stubServer({ source: 'embedded', upstream: null });
    renderPlayground();
    expect(screen.getByLabelText('First message')).toHaveValue("what's the weather in sf?");
    expect(screen.getByLabelText('Second message')).toHaveValue("what's the weather in nyc?");
    expect(screen.getByLabelText('Send the second message')).toHaveValue('tool-call');
    expect(screen.getByLabelText('Delay before second message')).toHaveValue(0);
    expect(screen.getByLabelText('Strategy')).toHaveValue('rollback');
    expect(screen.getByRole('option', { name: 'enqueue (server default)' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Embedded' })).toBeChecked();
    expect(screen.getByLabelText('Assistant id')).toHaveValue('agent');
    expect(screen.getByRole('button', { name: 'Run double-text' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(
      await screen.findByText('Reaches the embedded demo deployment of this server.'),
    ).toBeVisible();
  });

  it('opens with the form the URL holds, and writes each edit back to it', async () => {
    stubServer({ source: 'embedded', upstream: null });
    renderPlayground('?first=hello&delay=0.5&strategy=interrupt&assistant=bot');
    expect(screen.getByLabelText('First message')).toHaveValue('hello');
    expect(screen.getByLabelText('Second message')).toHaveValue("what's the weather in nyc?");
    expect(screen.getByLabelText('Delay before second message')).toHaveValue(0.5);
    expect(screen.getByLabelText('Strategy')).toHaveValue('interrupt');
    expect(screen.getByLabelText('Assistant id')).toHaveValue('bot');

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Strategy'), 'reject');
    await vi.waitFor(() => {
      const url = new URLSearchParams(window.location.search);
      expect(url.get('strategy')).toBe('reject');
      expect(url.get('first')).toBe('hello');
      expect(url.has('apiKey')).toBe(false);
    });
  });

  it('copies the scenario as runnable SDK code', async () => {
    stubServer({ source: 'embedded', upstream: null });
    renderPlayground('?strategy=interrupt&delay=0.3');
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy as SDK code' }));
    expect(await screen.findByText(/Copied: a TypeScript script/)).toBeVisible();
    const code = writeText.mock.calls[0]?.[0] ?? '';
    expect(code).toContain("import { Client } from '@langchain/langgraph-sdk';");
    expect(code).toContain('multitaskStrategy: "interrupt"');
    expect(code).toContain('setTimeout(resolve, 300)');
    expect(code).toContain(`apiUrl: "${window.location.origin}/_console/deployment"`);
  });

  it('says which real deployment the embedded setting reaches when the server has one', async () => {
    stubServer({ source: 'remote', upstream: 'https://prod.example.com' });
    renderPlayground();
    expect(await screen.findByText('https://prod.example.com')).toBeVisible();
  });

  it('refuses to send an empty message or delay and says why', async () => {
    const fetchMock = stubServer({ source: 'embedded', upstream: null });
    renderPlayground();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText('First message'));
    await user.clear(screen.getByLabelText('Delay before second message'));
    await user.click(screen.getByRole('button', { name: 'Run double-text' }));

    expect(await screen.findByText('Enter the first message.')).toBeVisible();
    expect(screen.getByText('Enter the delay in seconds (0 is allowed).')).toBeVisible();
    expect(screen.getByLabelText('First message')).toHaveAccessibleDescription(
      'Enter the first message.',
    );
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual(['/_console/config']);
  });

  it('asks for a URL and offers an API key when pointed at a deployment by URL', async () => {
    stubServer({ source: 'embedded', upstream: null });
    renderPlayground();
    const user = userEvent.setup();
    expect(screen.queryByLabelText('Deployment URL')).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'By URL' }));
    expect(screen.getByLabelText('API key (optional)')).toHaveAttribute('type', 'password');
    await user.type(screen.getByLabelText('Deployment URL'), 'not a url');
    await user.click(screen.getByRole('button', { name: 'Compare strategies' }));
    expect(
      await screen.findByText('Enter the deployment URL, starting with http:// or https://.'),
    ).toBeVisible();
  });

  it('sends the API key to the deployment by URL as x-api-key, and keeps it out of the URL and storage', async () => {
    const sent: Headers[] = [];
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === '/_console/config') {
        const usage = { source: 'embedded', upstream: null, deploymentMode: 'cloud' };
        return Response.json({ usage, deployment: { source: 'embedded', upstream: null } });
      }
      if (String(input).startsWith('https://dep.example.com/')) {
        sent.push(new Headers(init?.headers));
        return Response.json({ detail: 'Invalid API key.' }, { status: 401 });
      }
      throw new Error(`unexpected request: ${String(input)}`);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderPlayground();
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'By URL' }));
    await user.type(screen.getByLabelText('Deployment URL'), 'https://dep.example.com');
    await user.type(screen.getByLabelText('API key (optional)'), 'lsv2_secret_key');
    await user.click(screen.getByRole('button', { name: 'Run double-text' }));

    await vi.waitFor(() => expect(sent.length).toBeGreaterThan(0));
    expect(sent[0]?.get('x-api-key')).toBe('lsv2_secret_key');
    // The deployment refused the key: the page says what to check.
    expect(await screen.findByText(/Check the API key \(sent as x-api-key\)/)).toBeVisible();
    expect(window.location.href).not.toContain('lsv2_secret_key');
    const stored = [localStorage, sessionStorage].flatMap((storage) =>
      Object.keys(storage).map((key) => storage.getItem(key) ?? ''),
    );
    expect(stored.join('\n')).not.toContain('lsv2_secret_key');
  });

  it('describes what the chosen strategy does', async () => {
    stubServer({ source: 'embedded', upstream: null });
    renderPlayground();
    await userEvent.setup().selectOptions(screen.getByLabelText('Strategy'), 'enqueue');
    expect(
      screen.getByText(
        'Lets run 1 finish; run 2 is queued and runs after it. The default when no strategy is sent.',
      ),
    ).toBeVisible();
  });
});
