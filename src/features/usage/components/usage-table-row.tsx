import { formatCount, formatPercent, formatSignedCount, formatSignedPercent } from '@/lib/format';
import { estimateCost, formatUsd } from '../model/cost-estimate';
import type { PeriodChange } from '../model/compare-periods';
import type { TableLine } from '../model/table-rows';

interface GroupLineProps {
  line: Extract<TableLine, { kind: 'group' }>;
  /** The project's workspace, when the usage response names it. */
  workspace: string | null;
  pricePer1k: number;
  focused: boolean;
  onFocus: (key: string | null) => void;
}

/** A group's row; its name is a button that shows the group alone in the chart. */
export function GroupLine({ line, workspace, pricePer1k, focused, onFocus }: GroupLineProps) {
  const { row } = line;
  return (
    <tr className={line.folded ? 'folded-row' : undefined}>
      <th scope="row" className={row.unknown ? 'unknown' : undefined}>
        <button
          type="button"
          className="row-button"
          aria-pressed={focused}
          title={focused ? 'Show all groups' : 'Show this group alone in the chart'}
          onClick={() => onFocus(focused ? null : row.key)}
        >
          {row.label}
        </button>
        {workspace ? <span className="row-detail">{workspace}</span> : null}
      </th>
      <td className="num">{formatCount(row.traces)}</td>
      <td className="num">{formatPercent(row.share)}</td>
      <td className="num">{formatUsd(estimateCost(row.traces, pricePer1k))}</td>
      <td className="num">
        <ChangeCell change={row.periodChange} />
      </td>
    </tr>
  );
}

/** A change against the previous period, in words and signs, not colours (see usage.css). */
export function ChangeCell({ change }: { change: PeriodChange | undefined }) {
  if (!change || change.kind === 'none') return <>—</>;
  if (change.kind === 'unmeasured') {
    return (
      <span title="The previous period has no data (before the data floor)">Not measured</span>
    );
  }
  if (change.kind === 'from-zero') {
    return <span>{formatSignedCount(change.delta)} (none before)</span>;
  }
  return <span title={formatSignedCount(change.delta)}>{formatSignedPercent(change.ratio)}</span>;
}
