import { useMutation, type UseQueryResult } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { formatUtc } from '@/lib/format-utc';
import { usageExportFilename } from '@contracts/usage/export-filename';
import type { TraceGroupBy, UsageKind } from '@contracts/usage/usage-schema';
import type { ComparisonPlan } from '../model/measured-comparison';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { DataFreshness } from './data-freshness';
import { describeUsageError, UsageError } from './usage-error';

/*
 * The frame of every domain tab beyond traces (deployments, LLM usage): the view's states and
 * the export of what it shows. One module, so the tabs' chunks share one chunk of it.
 */

/** What every chart of the usage tab shares: the screen's now, the focused group, the zoom. */
export interface SharedChartProps {
  nowMs: number;
  /** The group shown alone (a series key), or null for all. */
  focus: string | null;
  onFocus: (key: string | null) => void;
  /** A bar was clicked: bucket `index` of the view's grid (absent when nothing is finer). */
  onZoom: ((index: number) => void) | undefined;
}

/** What the usage tab hands each domain tab beyond traces: one range, grouping and focus. */
export interface DomainTabProps {
  view: ResolvedUsageView;
  chart: SharedChartProps;
  /** The screen's comparison with the previous period of the same length. */
  plan: ComparisonPlan;
  /** From a focused workspace, the way down to its projects. */
  onShowProjects: (workspaceId: string) => void;
  onChangeKey: () => void;
}

interface DomainUsageViewProps<Data> {
  view: ResolvedUsageView;
  usage: UseQueryResult<Data>;
  /** How the domain counts, under the freshness line. */
  countingRule: string;
  /** The cards above the chart, drawn in every state. */
  cards: ReactNode;
  /** "Loading <what>…" while the first answer is on its way. */
  loadingWhat: string;
  isEmpty: (data: Data) => boolean;
  /** The empty state: its title, and what did not happen ("No agent ran or was up"). */
  empty: { title: string; nothing: string };
  /** The chart panel's heading, its id, and what stands beside it. */
  panel: { className: string; headingId: string; title: string; aside: ReactNode };
  /** The panel's body for the data on screen (the previous view's while a new one loads). */
  children: (data: Data) => ReactNode;
  onChangeKey: () => void;
}

/**
 * The frame every domain tab beyond traces shares: the freshness line, the cards, then one of
 * the error, loading, empty or chart states as on Traces. The previous chart stays on screen while
 * a new range loads; a domain fills in its cards and its panel's body.
 */
export function DomainUsageView<Data>({
  view,
  usage,
  countingRule,
  cards,
  loadingWhat,
  isEmpty,
  empty,
  panel,
  children,
  onChangeKey,
}: DomainUsageViewProps<Data>) {
  const data = usage.data;
  const shown = data !== undefined && !isEmpty(data) ? data : undefined;
  const { startMs, endMs } = view.range;
  return (
    <>
      <DataFreshness
        updatedAtMs={data !== undefined && !usage.isPlaceholderData ? usage.dataUpdatedAt : null}
      >
        {countingRule}
      </DataFreshness>
      {cards}
      {usage.isError ? (
        <UsageError
          error={usage.error}
          onRetry={() => void usage.refetch()}
          onChangeKey={onChangeKey}
        />
      ) : null}
      {data === undefined && !usage.isError ? (
        <div className="chart-skeleton" role="status">
          Loading {loadingWhat}…
        </div>
      ) : null}
      {data !== undefined && shown === undefined ? (
        <div className="empty-state">
          <p>
            <strong>{empty.title}</strong>
          </p>
          <p>
            {`${empty.nothing} in the selected workspaces between ${formatUtc(startMs, 'MMM d, yyyy')} and ${formatUtc(endMs - 1, 'MMM d, yyyy')} (UTC).`}
          </p>
        </div>
      ) : null}
      {shown !== undefined ? (
        <section
          className={panel.className}
          aria-labelledby={panel.headingId}
          aria-busy={usage.isFetching}
        >
          <div className="panel-heading">
            <h3 id={panel.headingId}>{panel.title}</h3>
            {panel.aside}
          </div>
          {children(shown)}
        </section>
      ) : null}
    </>
  );
}

/** A domain's file of the data on screen, in the server's columns for that domain. */
export interface DomainCsv {
  kind: UsageKind;
  /** The grouping the file is named after (a domain may group otherwise than the view). */
  groupBy: TraceGroupBy | 'model';
  /** The CSV text; `includeContext` fills the group's context columns too. */
  toCsv: (includeContext: boolean) => string;
}

/**
 * Export CSV of a domain tab beyond traces, built from the screen's buckets so the file always
 * matches the charts and the cards, and named as the server names it.
 */
export function DomainExportButton({
  view,
  file,
}: {
  view: ResolvedUsageView | null;
  /** The file of the data on screen for `view`; absent while it loads. */
  file: DomainCsv | undefined;
}) {
  const statusId = useId();
  const exportCsv = useMutation({
    mutationFn: async () => {
      if (!view || !file) throw new Error('Nothing to export yet.');
      // The saving code loads on the first export, not with the tab.
      const [{ saveBlob, EXPORT_INCLUDES_CONTEXT }, { UTF8_BOM }] = await Promise.all([
        import('../api/export-usage-csv'),
        import('../model/usage-csv'),
      ]);
      const csv = file.toCsv(EXPORT_INCLUDES_CONTEXT);
      const { startMs, endMs } = view.range;
      const filename = usageExportFilename(startMs, endMs, file.groupBy, file.kind);
      saveBlob(new Blob([UTF8_BOM, csv], { type: 'text/csv;charset=utf-8' }), filename);
      return filename;
    },
  });
  return (
    <div className="export">
      <button
        type="button"
        className="button"
        disabled={!view || !file || exportCsv.isPending}
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
