import { Spinner } from '@/components/ui/spinner';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { exportUsageCsv, saveBlob, type ExportProgress } from '../api/export-usage-csv';
import { useUsageConnection } from '../api/usage-connection';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import type { UsageMatrix } from '../model/usage-matrix';
import { describeUsageError } from './usage-error';

interface ExportCsvButtonProps {
  view: ResolvedUsageView | null;
  /** The data on screen for `view`; absent while it loads, so the file always matches it. */
  matrix: UsageMatrix | undefined;
}

export function ExportCsvButton({ view, matrix }: ExportCsvButtonProps) {
  const { connection } = useUsageConnection();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const exportCsv = useMutation({
    mutationFn: async () => {
      if (!view || !matrix) throw new Error('Nothing to export yet.');
      const file = await exportUsageCsv(connection, view, matrix, setProgress);
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
      <button
        type="button"
        className="button"
        disabled={!view || !matrix || exportCsv.isPending}
        aria-describedby="export-status"
        onClick={() => exportCsv.mutate()}
      >
        {exportCsv.isPending ? <Spinner onAccent /> : null}
        Export CSV
      </button>
      <span id="export-status" className="muted small" role="status">
        {status}
      </span>
      {exportCsv.isError ? (
        <span className="field-error" role="alert">
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
