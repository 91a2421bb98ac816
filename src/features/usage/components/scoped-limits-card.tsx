import { useState, type FormEvent } from 'react';
import type { LimitStatus } from '@contracts/usage/usage-limits';
import type { Workspace } from '@contracts/usage/usage-schema';
import { formatCount } from '@/lib/format';
import { useLimitStatus } from '../api/get-limit-status';
import { useScopedLimits, usePutScopedLimit, type ScopedLimitInput } from '../api/scoped-limits';
import { formatUsd } from '../model/cost-estimate';
import { LimitTargetName } from './limit-target-name';
import { LimitTargetPicker } from './limit-target-picker';

interface ScopedLimitsCardProps {
  workspaces: readonly Workspace[];
  canEdit: boolean;
  nowMs: number;
}

type Scope = ScopedLimitInput['scope'];

const SCOPE_LABELS: Record<Scope, string> = {
  project: 'A project (traces a month)',
  user: 'A user (traces a month)',
  spend: 'The workspace’s spend (dollars a month)',
};

/** The form's text as a request, or the problem to show next to it. */
function toInput(
  workspaceId: string,
  scope: Scope,
  target: string,
  value: string,
  share: string,
): ScopedLimitInput | string {
  const amount = Number(value);
  if (value.trim() === '' || !Number.isFinite(amount) || amount < 0) {
    return 'Enter a number of 0 or more.';
  }
  if (scope === 'spend') {
    const percent = Number(share);
    if (!Number.isFinite(percent) || percent < 0 || percent > 100) {
      return 'The extended share is a percent from 0 to 100.';
    }
    return { workspaceId, scope, dollars: amount, extendedShare: percent / 100 };
  }
  if (target.trim() === '') return `Choose a ${scope} or enter its id.`;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(target.trim())) {
    return `Enter the ${scope}'s id (a UUID).`;
  }
  if (!Number.isInteger(amount)) return 'Enter a whole number of traces.';
  return { workspaceId, scope, targetId: target.trim(), traces: amount };
}

/**
 * Limits beside each workspace's own: a project's or a user's traces a month, and a workspace's
 * spend in dollars split between base and extended-retention traces, with the table of them.
 */
export function ScopedLimitsCard({ workspaces, canEdit, nowMs }: ScopedLimitsCardProps) {
  const limits = useScopedLimits();
  const status = useLimitStatus();
  const month = new Map((status.data ?? []).map((entry) => [entry.limit_id, entry]));
  const save = usePutScopedLimit();
  const [scope, setScope] = useState<Scope>('project');
  const [workspaceId, setWorkspaceId] = useState(workspaces[0]?.id ?? '');
  const [target, setTarget] = useState('');
  const [value, setValue] = useState('');
  const [share, setShare] = useState('0');
  const [problem, setProblem] = useState<string | undefined>();
  const names = new Map(workspaces.map((workspace) => [workspace.id, workspace.display_name]));
  const error = problem ?? (save.isError ? save.error.message : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = toInput(workspaceId, scope, target, value, share);
    if (typeof input === 'string') {
      setProblem(input);
      return;
    }
    setProblem(undefined);
    save.mutate(input);
  };

  return (
    <section className="scoped-limits" aria-labelledby="scoped-limits-heading">
      <h4 id="scoped-limits-heading">Project, user and spend limits</h4>
      {limits.isError ? (
        <p className="muted small">These limits are not available: {limits.error.message}</p>
      ) : null}
      {limits.data && limits.data.length > 0 ? (
        <div className="table-scroll">
          <table className="limits-table">
            <caption className="visually-hidden">Project, user and spend limits</caption>
            <thead>
              <tr>
                <th scope="col">Workspace</th>
                <th scope="col">Holds</th>
                <th scope="col">Limit</th>
                <th scope="col">This month</th>
              </tr>
            </thead>
            <tbody>
              {limits.data.map((limit) => (
                <tr key={limit.id}>
                  <td>{names.get(limit.tenant_id) ?? limit.tenant_id}</td>
                  <td>
                    {limit.limit_type === 'monthly_spend' || limit.scope === 'workspace' ? (
                      'Spend'
                    ) : (
                      <LimitTargetName
                        workspaceId={limit.tenant_id}
                        scope={limit.scope}
                        targetId={limit.target_id}
                        nowMs={nowMs}
                      />
                    )}
                  </td>
                  <td>
                    {limit.limit_type === 'monthly_spend'
                      ? `${formatUsd(limit.limit_value)} a month, ${Math.round(
                          (limit.extended_share ?? 0) * 100,
                        )}% extended: ${limit.derived?.monthly_traces.toLocaleString('en-US') ?? 0} traces, ${
                          limit.derived?.monthly_longlived_traces.toLocaleString('en-US') ?? 0
                        } extended`
                      : `${limit.limit_value.toLocaleString('en-US')} traces a month`}
                  </td>
                  <td>{thisMonth(month.get(limit.id))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {limits.data && limits.data.length === 0 ? (
        <p className="muted small">No project, user or spend limits.</p>
      ) : null}
      {canEdit ? (
        <form
          className="limit-editor"
          aria-label="Add a project, user or spend limit"
          noValidate
          onSubmit={submit}
        >
          <label htmlFor="scoped-limit-scope">Limit of</label>
          <select
            id="scoped-limit-scope"
            value={scope}
            onChange={(event) => {
              setScope(event.target.value as Scope);
              setTarget('');
            }}
          >
            {(Object.keys(SCOPE_LABELS) as Scope[]).map((key) => (
              <option key={key} value={key}>
                {SCOPE_LABELS[key]}
              </option>
            ))}
          </select>
          <label htmlFor="scoped-limit-workspace">Workspace</label>
          <select
            id="scoped-limit-workspace"
            value={workspaceId}
            onChange={(event) => {
              setWorkspaceId(event.target.value);
              setTarget('');
            }}
          >
            {workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.display_name}
              </option>
            ))}
          </select>
          {scope === 'spend' ? null : (
            <LimitTargetPicker
              key={`${workspaceId}-${scope}`}
              workspaceId={workspaceId}
              scope={scope}
              nowMs={nowMs}
              value={target}
              onChange={setTarget}
              describedBy={error ? 'scoped-limit-error' : undefined}
            />
          )}
          <label>
            {scope === 'spend' ? 'Dollars a month' : 'Traces a month'}
            <input
              inputMode="decimal"
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'scoped-limit-error' : undefined}
              value={value}
              onChange={(event) => setValue(event.target.value)}
            />
          </label>
          {scope === 'spend' ? (
            <label>
              Extended retention share (%)
              <input
                inputMode="decimal"
                autoComplete="off"
                value={share}
                onChange={(event) => setShare(event.target.value)}
              />
            </label>
          ) : null}
          {error ? (
            <p id="scoped-limit-error" className="field-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="limit-editor-actions">
            <button type="submit" className="button" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Add limit'}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

/**
 * A limit's month so far, as the status counts it: traces, or dollars for a spend limit, and the
 * root runs it refused.
 */
function thisMonth(entry: LimitStatus | undefined): string {
  if (!entry) return '–';
  const used =
    entry.limit_type === 'monthly_spend'
      ? formatUsd(entry.used)
      : `${formatCount(entry.used)} traces`;
  const refused = entry.refused ? ` · ${formatCount(entry.refused)} refused` : '';
  return `${entry.reached_at ? `${used} (limit reached)` : used}${refused}`;
}
