import { useState } from 'react';
import { useLimitTargets } from '../api/get-limit-targets';
import type { TargetScope } from '../model/limit-targets';

interface LimitTargetPickerProps {
  workspaceId: string;
  scope: TargetScope;
  nowMs: number;
  /** The chosen project's or user's id, or the text typed as one. */
  value: string;
  onChange: (value: string) => void;
  describedBy?: string;
}

/** The select's value for "type an id instead". */
const TYPED = '__typed__';

/**
 * The project or user a limit holds: a native select of the workspace's projects or users with
 * traces (by name; keyboard and screen readers as any select), and "another" for an id typed by
 * hand, which also serves when the catalog cannot be read.
 */
export function LimitTargetPicker({
  workspaceId,
  scope,
  nowMs,
  value,
  onChange,
  describedBy,
}: LimitTargetPickerProps) {
  const targets = useLimitTargets(workspaceId, scope, nowMs);
  const [typing, setTyping] = useState(false);
  const listed = targets.data ?? [];
  const typed = typing || targets.isError || (value !== '' && !listed.some((t) => t.id === value));
  const noun = scope === 'project' ? 'project' : 'user';
  const selectId = 'scoped-limit-target';
  const inputId = 'scoped-limit-target-id';

  return (
    <>
      <label htmlFor={selectId}>{scope === 'project' ? 'Project' : 'User'}</label>
      <select
        id={selectId}
        value={typed ? TYPED : value}
        aria-describedby={describedBy}
        onChange={(event) => {
          const chosen = event.target.value;
          setTyping(chosen === TYPED);
          onChange(chosen === TYPED ? '' : chosen);
        }}
      >
        <option value="" disabled>
          {targets.isPending ? `Reading the ${noun}s…` : `Choose a ${noun}`}
        </option>
        {listed.map((target) => (
          <option key={target.id} value={target.id}>
            {target.label}
          </option>
        ))}
        <option value={TYPED}>Another {noun}: enter its id</option>
      </select>
      {typed ? (
        <label htmlFor={inputId}>
          {scope === 'project' ? 'Project id' : 'User id'}
          <input
            id={inputId}
            autoComplete="off"
            spellCheck={false}
            value={value}
            aria-describedby={describedBy}
            onChange={(event) => onChange(event.target.value)}
          />
        </label>
      ) : null}
      {targets.isError ? (
        <p className="muted small">
          The {noun}s could not be read ({targets.error.message}): enter an id.
        </p>
      ) : null}
    </>
  );
}
