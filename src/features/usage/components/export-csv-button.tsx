import { Spinner } from '@/components/ui/spinner';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ExportProgress } from '../api/export-usage-csv';
import { useUsageConnection } from '../api/usage-connection';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import type { UsageMatrix } from '../model/usage-matrix';
import { describeUsageError } from './usage-error';

interface ExportCsvButtonProps {
  view: ResolvedUsageView | null;
  /** The data on screen for `view`; absent while it loads, so the file always matches it. */
  matrix: UsageMatrix | undefined;
  /** Dollars per 1,000 traces, for the optional estimated cost column. */
  pricePer1k: number;
  /** The group the chart shows alone, by name: the file still holds every group, and says so. */
  focusLabel?: string | null;
}

/**
 * The export button with its cost-column option above it (where the other controls have their
 * label) and its status below, out of the flow: a "Saved" note does not move the controls.
 */
export function ExportCsvButton({ view, matrix, pricePer1k, focusLabel }: ExportCsvButtonProps) {
  const { connection } = useUsageConnection();
  const costId = useId();
  const [withCost, setWithCost] = useState(false);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const exportCsv = useMutation({
    mutationFn: async () => {
      if (!view || !matrix) throw new Error('Nothing to export yet.');
      // The CSV code loads on the first export, not with the tab (its first-load JS budget).
      const { exportUsageCsv, saveBlob } = await import('../api/export-usage-csv');
      const file = await exportUsageCsv(
        connection,
        view,
        matrix,
        setProgress,
        undefined,
        withCost ? pricePer1k : undefined,
      );
      saveBlob(file.blob, file.filename);
      return file;
    },
    onSettled: () => setProgress(null),
  });

  const status = exportCsv.isPending
    ? progress && progress.total > 1
      ? `Exporting… ${progress.done} of ${progress.total} parts`
      : 'Exporting…'
    : exportCsv.isSuccess
      ? `Saved ${exportCsv.data.filename}`
      : '';

  return (
    <div className="export">
      <label className="check small export-cost" htmlFor={costId}>
        <input
          id={costId}
          type="checkbox"
          checked={withCost}
          onChange={(event) => setWithCost(event.target.checked)}
        />
        <span>Add estimated cost column</span>
      </label>
      <button
        type="button"
        className="button"
        disabled={!view || !matrix || exportCsv.isPending}
        aria-describedby="export-status"
        onClick={() => exportCsv.mutate()}
      >
        {exportCsv.isPending ? <Spinner onAccent /> : null}
        {focusLabel ? 'Export CSV (all groups)' : 'Export CSV'}
      </button>
      <span id="export-status" className="action-status muted small" role="status">
        {status}
      </span>
      {exportCsv.isError ? (
        <span className="action-status field-error" role="alert">
          Export failed: {describeExportError(exportCsv.error)}
        </span>
      ) : null}
    </div>
  );
}

function describeExportError(error: Error): string {
  const { title, body } = describeUsageError(error);
  return `${title}. ${body}`;
}
