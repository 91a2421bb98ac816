import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { usageExportFilename } from '@contracts/usage/export-filename';
import { llmMatricesToCsv, type LlmMatrices } from '../model/llm-matrices';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { describeUsageError } from './usage-error';

/**
 * Export CSV of the LLM tab, in the server's LLM columns, built from the screen's buckets so the
 * file always matches the chart and the cards.
 */
export function LlmExportButton({
  view,
  matrices,
}: {
  view: ResolvedUsageView | null;
  /** The data on screen for `view`; absent while it loads. */
  matrices: LlmMatrices | undefined;
}) {
  const statusId = useId();
  const exportCsv = useMutation({
    mutationFn: async () => {
      if (!view || !matrices) throw new Error('Nothing to export yet.');
      const [{ saveBlob, EXPORT_INCLUDES_CONTEXT }, { UTF8_BOM }] = await Promise.all([
        import('../api/export-usage-csv'),
        import('../model/usage-csv'),
      ]);
      const csv = llmMatricesToCsv(matrices, view.groupBy, {
        includeContext: EXPORT_INCLUDES_CONTEXT,
      });
      const filename = usageExportFilename(
        view.range.startMs,
        view.range.endMs,
        view.groupBy,
        'llm_usage',
      );
      saveBlob(new Blob([UTF8_BOM, csv], { type: 'text/csv;charset=utf-8' }), filename);
      return filename;
    },
  });
  return (
    <div className="export">
      <button
        type="button"
        className="button"
        disabled={!view || !matrices || exportCsv.isPending}
        aria-describedby={statusId}
        onClick={() => exportCsv.mutate()}
      >
        {exportCsv.isPending ? <Spinner onAccent /> : null}
        Export CSV
      </button>
      <span id={statusId} className="muted small" role="status">
        {exportCsv.isPending ? 'Exporting…' : exportCsv.isSuccess ? `Saved ${exportCsv.data}` : ''}
      </span>
      {exportCsv.isError ? (
        <span className="field-error" role="alert">
          Export failed: {describeUsageError(exportCsv.error).title}
        </span>
      ) : null}
    </div>
  );
}
