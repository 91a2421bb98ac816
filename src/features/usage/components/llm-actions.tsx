import { llmSearchParams, useLlmUsage } from '../api/get-llm-usage';
import { llmMatricesToCsv } from '../model/llm-matrices';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { CopyCurlButton } from './copy-curl-button';
import { DomainExportButton } from './domain-tab';

/**
 * The LLM tab's curl and CSV actions. Their data is the view's query (the same key as the
 * chart's), so the file matches the screen without a second request.
 */
export function LlmActions({ view }: { view: ResolvedUsageView | null }) {
  const usage = useLlmUsage(view);
  const matrices = usage.isPlaceholderData ? undefined : usage.data?.matrices;
  return (
    <>
      <CopyCurlButton
        view={view}
        paramsOf={(resolved, window) => llmSearchParams(resolved, window)}
      />
      <DomainExportButton
        view={view}
        file={
          view && matrices
            ? {
                kind: 'llm_usage',
                groupBy: view.groupBy,
                toCsv: (includeContext) =>
                  llmMatricesToCsv(matrices, view.groupBy, { includeContext }),
              }
            : undefined
        }
      />
    </>
  );
}
