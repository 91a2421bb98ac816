import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { EMBEDDED_DEPLOYMENT_PATH } from '@/features/playground/model/connection';
import type {
  PlaygroundFormInput,
  PlaygroundFormValues,
} from '@/features/playground/model/playground-form';
import { buildSdkSnippet } from '@/features/playground/model/sdk-snippet';

type CopyState = { kind: 'idle' } | { kind: 'copied' } | { kind: 'failed'; code: string };

/** "Copy as SDK code": the form's scenario as a runnable `@langchain/langgraph-sdk` script. */
export function CopySdkCode() {
  const { getValues } = useFormContext<PlaygroundFormInput, unknown, PlaygroundFormValues>();
  const [state, setState] = useState<CopyState>({ kind: 'idle' });

  async function copy() {
    const values = getValues();
    const byUrl = values.deployment === 'url';
    const code = buildSdkSnippet({
      apiUrl: byUrl ? values.url.trim() : `${window.location.origin}${EMBEDDED_DEPLOYMENT_PATH}`,
      needsApiKey: byUrl,
      assistantId: values.assistantId,
      first: values.first,
      second: values.second,
      delayMs: Number.isFinite(values.delaySeconds) ? values.delaySeconds * 1000 : 0,
      sendAfter: values.sendAfter,
      strategy: values.strategy,
    });
    try {
      await navigator.clipboard.writeText(code);
      setState({ kind: 'copied' });
    } catch {
      // No clipboard permission (or an insecure origin): show the code to copy by hand.
      setState({ kind: 'failed', code });
    }
  }

  return (
    <div className="pg-copy">
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        Copy as SDK code
      </button>
      <span role="status" className="pg-muted">
        {state.kind === 'copied' && 'Copied: a TypeScript script for @langchain/langgraph-sdk.'}
        {state.kind === 'failed' && 'The clipboard is not available here: copy the code below.'}
      </span>
      {state.kind === 'failed' && (
        <pre className="raw-json-body" aria-label="SDK code">
          {state.code}
        </pre>
      )}
    </div>
  );
}
