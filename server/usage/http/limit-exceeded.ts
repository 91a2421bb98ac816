import type { Context } from 'hono';
import { limitMonth, retryAfterHeader } from '@contracts/usage/limit-period';
import type { LimitExceeded } from '@contracts/usage/usage-limits';
import type { IngestProblem } from '../ingest/run-operations';
import type { RunBatchResult } from '../store/usage-store';
import type { IngestTarget } from './authorize-writer';

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * 429 for a request whose new root runs went over a usage limit: `{detail}` names the workspace,
 * the limit and the reset, `Retry-After` is the reset; the request's other runs were billed as
 * usual and are counted in `accepted` / `traces_billed` (nothing acknowledged is ever dropped).
 */
export function limitExceededResponse(
  c: Context,
  target: IngestTarget,
  result: RunBatchResult,
  acceptedRuns: number,
  problems: IngestProblem[],
): Response {
  const [first] = result.refused;
  const nowMs = result.ingestedAt.getTime();
  const resetsAt = new Date(limitMonth(nowMs).endMs).toISOString();
  const limitValue = first?.limitValue ?? 0;
  const limitType = first?.limitType ?? 'monthly_traces';
  const count = result.refused.length;
  const scope = first?.scope ?? 'workspace';
  const targetId = first?.targetId ?? target.workspaceId;
  const holder =
    scope === 'workspace'
      ? `Workspace ${target.workspaceName} (${target.workspaceId})`
      : `The ${scope} ${targetId} of workspace ${target.workspaceName} (${target.workspaceId})`;
  const spend = first?.spendLimit;
  const limitName =
    spend === undefined
      ? `${limitType} usage limit of ${limitValue} traces`
      : `monthly_spend limit of $${spend} (${limitValue} ${limitType})`;
  const body: LimitExceeded = {
    detail:
      `${holder} reached its ${limitName} for ${MONTH.format(nowMs)}: ${count} new ` +
      `${count === 1 ? 'trace was' : 'traces were'} refused. The limit resets at ${resetsAt}.`,
    workspace_id: target.workspaceId,
    limit_type: limitType,
    limit_value: limitValue,
    scope,
    target_id: targetId,
    ...(spend === undefined ? {} : { spend_limit: spend }),
    resets_at: resetsAt,
    refused_run_ids: result.refused.map((run) => run.runId),
    accepted: acceptedRuns - count,
    traces_billed: result.inserted,
    problems,
  };
  c.header('Retry-After', retryAfterHeader(nowMs));
  return c.json(body, 429);
}
