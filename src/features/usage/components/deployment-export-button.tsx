import { Spinner } from '@/components/ui/spinner';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { usageExportFilename } from '@contracts/usage/export-filename';
import { deploymentGroupBy } from '../model/deployment-group-by';
import type { DeploymentMatrices } from '../model/deployment-matrices';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { describeUsageError } from './usage-error';

/**
 * Export CSV of the Deployments tab: the three metrics on screen, in the server's deployments
 * columns, built from the screen's buckets so the file always matches the charts.
 */
export function DeploymentExportButton({
  view,
  matrices,
}: {
  view: ResolvedUsageView | null;
  /** The data on screen for `view`; absent while it loads. */
  matrices: DeploymentMatrices | undefined;
}) {
  const statusId = useId();
  const exportCsv = useMutation({
    mutationFn: async () => {
      if (!view || !matrices) throw new Error('Nothing to export yet.');
      // The CSV code loads on the first export, not with the tab.
      const [{ deploymentMatricesToCsv }, { saveBlob, EXPORT_INCLUDES_CONTEXT }, { UTF8_BOM }] =
        await Promise.all([
          import('../model/deployment-matrices'),
          import('../api/export-usage-csv'),
          import('../model/usage-csv'),
        ]);
      const groupBy = deploymentGroupBy(view.groupBy);
      const csv = deploymentMatricesToCsv(matrices, groupBy, {
        includeContext: EXPORT_INCLUDES_CONTEXT,
      });
      const { startMs, endMs } = view.range;
      const filename = usageExportFilename(startMs, endMs, groupBy, 'langsmith_deployments');
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
