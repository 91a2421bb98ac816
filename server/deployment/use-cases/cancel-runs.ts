import { type MetadataFilter, matchesFilters } from '../store/metadata-filter';
import type { RunRecord } from '../store/records';
import type { CancelRunsBody } from '../wire/cancel-runs-request';
import type { DeploymentDeps } from './deployment-deps';

type Selection = Pick<CancelRunsBody, 'thread_id' | 'run_ids' | 'status'>;

/** The runs a bulk cancel names that are still active; `undefined` when named ids match no run. */
async function selectRuns(
  deps: Pick<DeploymentDeps, 'runs' | 'threads'>,
  { thread_id, run_ids, status }: Selection,
  filters: MetadataFilter | undefined,
): Promise<RunRecord[] | undefined> {
  const { runs } = deps;
  // Authorization's filters hold on the runs' threads: another caller's runs are not there.
  const visible = async (threadId: string) => {
    if (!filters) return true;
    const thread = await deps.threads.get(threadId);
    return thread !== undefined && matchesFilters(thread.metadata, filters);
  };
  if (thread_id && run_ids) {
    if (!(await visible(thread_id))) return undefined;
    const found = await Promise.all(run_ids.map((runId) => runs.get(thread_id, runId)));
    const existing = found.filter((run) => run !== undefined);
    if (existing.length === 0) return undefined;
    const active = new Set((await runs.active(thread_id)).map((run) => run.run_id));
    return existing.filter((run) => active.has(run.run_id));
  }
  const threads = new Set([
    ...(status !== 'running' ? await runs.threadsWithPendingRuns() : []),
    ...(status !== 'pending' ? await runs.threadsWithRunningRuns() : []),
  ]);
  const perThread = await Promise.all(
    [...threads].map(async (threadId) => ((await visible(threadId)) ? runs.active(threadId) : [])),
  );
  return perThread.flat().filter((run) => status === 'all' || run.status === status);
}

/**
 * Cancels every selected run through the single-run machinery (the thread lock, a stop sent to
 * the replica executing it, rollback deleting the run and what it wrote). A run that ends on its
 * own meanwhile is left as it ended. `undefined` when `run_ids` named no run of the thread.
 */
export async function cancelRuns(
  deps: Pick<DeploymentDeps, 'runs' | 'threads' | 'manager'>,
  selection: Selection,
  action: 'interrupt' | 'rollback',
  filters?: MetadataFilter,
): Promise<{ cancelled: number } | undefined> {
  const targets = await selectRuns(deps, selection, filters);
  if (!targets) return undefined;
  // Pending runs first: stopping a thread's running run first would start its next one.
  const ordered = [...targets].sort(
    (a, b) => Number(a.status === 'running') - Number(b.status === 'running'),
  );
  let cancelled = 0;
  for (const run of ordered) {
    if (!(await deps.manager.cancel(run, action))) cancelled += 1;
  }
  return { cancelled };
}
