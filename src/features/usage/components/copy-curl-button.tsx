import { useEffect, useState } from 'react';
import { useConsoleConfig } from '@/lib/console-config';
import { GRANULAR_USAGE_PATH, windowSearchParams } from '../api/get-usage-matrix';
import { useUsageConnection, type UsageConnection } from '../api/usage-connection';
import type { ResolvedUsageView } from '../model/resolve-usage-view';

/**
 * The exact requests behind the view, as curl commands (one per fetch window). The key is a
 * variable: the console never knows the server's key, and a typed key is not copied around.
 * `serverBaseUrl` is what the console's own connection reaches: the LangSmith base URL the
 * server is configured with, or the console's origin (its embedded usage API).
 */
export function curlCommands(
  view: ResolvedUsageView,
  connection: UsageConnection,
  serverBaseUrl: string,
  /** The query of one window; the Traces tab's by default (the Deployments tab passes its own). */
  paramsOf: SearchParamsOf = tracesSearchParams,
) {
  const root = `${(connection.baseUrl ?? serverBaseUrl).replace(/\/+$/, '')}/api/v1`;
  return view.windows
    .map((window) => {
      const params = paramsOf(view, window);
      return `curl -sS -H "x-api-key: $LANGSMITH_API_KEY" '${root}${GRANULAR_USAGE_PATH}?${params.toString()}'`;
    })
    .join('\n');
}

type SearchParamsOf = (
  view: ResolvedUsageView,
  window: ResolvedUsageView['windows'][number],
) => URLSearchParams;

const tracesSearchParams: SearchParamsOf = (view, window) =>
  windowSearchParams(window, view.groupBy, view.workspaceIds, view);

export function CopyCurlButton({
  view,
  paramsOf,
}: {
  view: ResolvedUsageView | null;
  paramsOf?: SearchParamsOf;
}) {
  const { connection } = useUsageConnection();
  const config = useConsoleConfig();
  const [state, setState] = useState<{ status: 'idle' | 'copied' | 'manual'; text: string }>({
    status: 'idle',
    text: '',
  });

  // "Copied" says it once and goes, so it never stands beside a later change of the view.
  useEffect(() => {
    if (state.status !== 'copied') return;
    const timer = window.setTimeout(() => setState({ status: 'idle', text: '' }), 4000);
    return () => window.clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    if (!view || !config.data) return;
    // In LangSmith mode the console proxies to LangSmith: the command must go there, not here.
    const text = curlCommands(
      view,
      connection,
      config.data.usage.upstream ?? window.location.origin,
      paramsOf,
    );
    try {
      await navigator.clipboard.writeText(text);
      setState({ status: 'copied', text });
    } catch {
      // No clipboard permission (e.g. plain http on another host): show it to copy by hand.
      setState({ status: 'manual', text });
    }
  };

  return (
    <div className="copy-curl">
      <button
        type="button"
        className="button button-secondary"
        disabled={!view || !config.data}
        onClick={() => void copy()}
      >
        Copy as curl
      </button>
      <span className="action-status copy-status small" role="status">
        {state.status === 'copied' ? 'Copied' : ''}
      </span>
      {state.status === 'manual' ? (
        <textarea
          className="curl-text"
          aria-label="curl command"
          readOnly
          value={state.text}
          rows={3}
        />
      ) : null}
    </div>
  );
}
