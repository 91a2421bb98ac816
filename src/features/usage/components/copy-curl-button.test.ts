import { describe, expect, it } from 'vitest';
import { resolveUsageView } from '../model/resolve-usage-view';
import { curlCommands } from './copy-curl-button';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const WORKSPACES = ['b0000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001'];

function view(period: '30d' | '1y', aggregation: 'daily' | null) {
  const resolved = resolveUsageView(
    { period, from: null, to: null, aggregation, groupBy: 'user', workspaces: null },
    NOW,
    WORKSPACES,
  );
  if (!resolved) throw new Error('no view');
  return resolved;
}

describe('curlCommands', () => {
  it('is the exact request of the view: the server URL, repeated workspace_ids, a key variable', () => {
    const text = curlCommands(
      view('30d', null),
      { baseUrl: null, apiKey: 'typed-secret' },
      'http://127.0.0.1:5173',
    );
    expect(text).toBe(
      `curl -sS -H "x-api-key: $LANGSMITH_API_KEY" 'http://127.0.0.1:5173/api/v1/orgs/current/billing/granular-usage` +
        `?start_time=2026-10-24T00%3A00%3A00.000Z&end_time=2026-11-23T00%3A00%3A00.000Z` +
        `&workspace_ids=a0000000-0000-4000-8000-000000000001&workspace_ids=b0000000-0000-4000-8000-000000000002&group_by=user'`,
    );
    expect(text).not.toContain('typed-secret');
  });

  it("targets the server's LangSmith base URL in LangSmith mode, not the console", () => {
    const text = curlCommands(
      view('30d', null),
      { baseUrl: null, apiKey: null },
      'https://eu.api.smith.langchain.com/',
    );
    expect(text).toContain(
      "'https://eu.api.smith.langchain.com/api/v1/orgs/current/billing/granular-usage?",
    );
  });

  it('lists one request per fetch window when the view is finer than the server stride', () => {
    const lines = curlCommands(
      view('1y', 'daily'),
      { baseUrl: 'https://api.smith.langchain.com/', apiKey: null },
      'x',
    ).split('\n');
    expect(lines).toHaveLength(12);
    for (const line of lines) {
      expect(line).toContain(
        "'https://api.smith.langchain.com/api/v1/orgs/current/billing/granular-usage?",
      );
      expect(line.match(/workspace_ids=/g)).toHaveLength(2);
    }
  });
});
