import { llmSearchParams, useLlmUsage } from '../api/get-llm-usage';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { CopyCurlButton } from './copy-curl-button';
import { LlmExportButton } from './llm-export-button';

/**
 * The LLM tab's curl and CSV actions. Their data is the view's query (the same key as the
 * chart's), so the file matches the screen without a second request.
 */
export function LlmActions({ view }: { view: ResolvedUsageView | null }) {
  const usage = useLlmUsage(view);
  return (
    <>
      <CopyCurlButton
        view={view}
        paramsOf={(resolved, window) => llmSearchParams(resolved, window)}
      />
      <LlmExportButton
        view={view}
        matrices={usage.isPlaceholderData ? undefined : usage.data?.matrices}
      />
    </>
  );
}
