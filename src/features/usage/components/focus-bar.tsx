import type { GroupBy } from '@contracts/usage/usage-schema';
import { OTHER_KEY, topSeriesWithOther } from '../model/top-series';
import type { UsageMatrix } from '../model/usage-matrix';

interface FocusBarProps {
  matrix: UsageMatrix;
  groupBy: GroupBy;
  focus: string;
  onFocus: (key: string | null) => void;
  onShowProjects: (workspaceId: string) => void;
}

/** "Showing <group> only · Show all", and from a workspace, the way down to its projects. */
export function FocusBar({ matrix, groupBy, focus, onFocus, onShowProjects }: FocusBarProps) {
  const label =
    focus === OTHER_KEY
      ? topSeriesWithOther(matrix).find((item) => item.key === OTHER_KEY)?.label
      : matrix.series.find((item) => item.key === focus)?.label;
  return (
    <div className="focus-bar" role="status">
      {label ? (
        <span>
          Showing <strong>{label}</strong> only: cards and chart. The table and the export hold
          every group.
        </span>
      ) : (
        <span>The focused group has no traces in this view</span>
      )}
      <span aria-hidden="true">·</span>
      <button type="button" className="link-button" onClick={() => onFocus(null)}>
        Show all
      </button>
      {groupBy === 'workspace' && label && focus !== OTHER_KEY && !focus.startsWith('unknown:') ? (
        <>
          <span aria-hidden="true">·</span>
          <button type="button" className="link-button" onClick={() => onShowProjects(focus)}>
            Projects in {label}
          </button>
        </>
      ) : null}
    </div>
  );
}
