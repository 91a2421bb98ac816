import type { ScopedLimit } from '@contracts/usage/usage-limits';
import { useLimitTargets } from '../api/get-limit-targets';
import type { TargetScope } from '../model/limit-targets';

interface LimitTargetNameProps {
  workspaceId: string;
  scope: TargetScope;
  targetId: ScopedLimit['target_id'];
  nowMs: number;
}

/**
 * Who a project or user limit holds: the project's or user's name as the usage data knows it
 * (the picker's list, read once per workspace and scope), with the id below it. The id alone
 * while the names load, when they cannot be read, or for a target with no traces in the window.
 */
export function LimitTargetName({ workspaceId, scope, targetId, nowMs }: LimitTargetNameProps) {
  const targets = useLimitTargets(workspaceId, scope, nowMs);
  const id = targetId.toLowerCase();
  const label = targets.data?.find((target) => target.id.toLowerCase() === id)?.label;
  const noun = scope === 'project' ? 'Project' : 'User';
  if (label === undefined || label.toLowerCase() === id) {
    return (
      <>
        {noun} <code>{targetId}</code>
      </>
    );
  }
  return (
    <>
      {noun} {label}
      <br />
      <code className="muted small">{targetId}</code>
    </>
  );
}
