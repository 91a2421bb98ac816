import { useEffect, useId, useRef } from 'react';
import { useToggle } from '@/components/ui/use-toggle';
import type { Workspace } from '@contracts/usage/usage-schema';

interface WorkspaceFilterProps {
  workspaces: Workspace[];
  loading: boolean;
  /** `null`: all readable workspaces (the default, kept out of the URL). */
  selected: string[] | null;
  onChange: (ids: string[] | null) => void;
  /** Workspaces the link named that the key cannot read (see DroppedWorkspacesNotice). */
  droppedCount?: number;
}

/** A button that opens a checkbox list; the choice lands in the URL at once. */
export function WorkspaceFilter({
  workspaces,
  loading,
  selected,
  onChange,
  droppedCount = 0,
}: WorkspaceFilterProps) {
  const { open, setOpen, panelId, buttonProps } = useToggle();
  const labelId = useId();
  const summaryId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const chosen = new Set(selected ?? workspaces.map((workspace) => workspace.id));
  const chosenSummary = loading
    ? 'Loading…'
    : selected === null
      ? `All (${workspaces.length})`
      : selected.length === 1
        ? (workspaces.find((workspace) => workspace.id === selected[0])?.display_name ??
          '1 selected')
        : `${selected.length} of ${workspaces.length}`;
  const summary =
    droppedCount > 0 ? `${chosenSummary} (${droppedCount} not readable, left out)` : chosenSummary;

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !rootRef.current?.contains(event.target as Node)
      ) {
        setOpen(false);
      }
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open, setOpen]);

  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    const everything = workspaces.every((workspace) => next.has(workspace.id));
    onChange(everything ? null : workspaces.filter((w) => next.has(w.id)).map((w) => w.id));
  };

  return (
    <div className="field workspace-filter" ref={rootRef}>
      <span className="field-label" id={labelId}>
        Workspaces
      </span>
      <button
        type="button"
        className="select-button"
        aria-labelledby={`${labelId} ${summaryId}`}
        disabled={loading}
        {...buttonProps}
      >
        <span id={summaryId}>{summary}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <fieldset className="popover" id={panelId}>
          <legend className="visually-hidden">Workspaces</legend>
          <div className="popover-actions">
            <button type="button" className="link-button" onClick={() => onChange(null)}>
              Select all
            </button>
            <button type="button" className="link-button" onClick={() => onChange([])}>
              Clear
            </button>
          </div>
          {workspaces.map((workspace) => (
            <label key={workspace.id} className="check">
              <input
                type="checkbox"
                checked={chosen.has(workspace.id)}
                onChange={() => toggle(workspace.id)}
              />
              <span>{workspace.display_name}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
