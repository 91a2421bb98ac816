import type { DeploymentDeps } from './deployment-deps';

const MAX_ROUNDS = 10;

type Deps = Pick<DeploymentDeps, 'threads' | 'runs' | 'manager' | 'checkpointer' | 'crons'>;

/**
 * Deletes a thread with its runs, checkpoints and crons; `false` when there is no such thread. Its
 * active runs are stopped first, newest first, so that cancelling one never starts a queued one.
 * Then the run records and the thread record go in one synchronous step, in which no request can
 * add a run (the runs reference the thread).
 */
export async function deleteThread(deps: Deps, threadId: string): Promise<boolean> {
  const { threads, runs, manager, checkpointer } = deps;
  if (!(await threads.get(threadId))) return false;
  // First, so that no cron fires a run on it while its runs are being stopped.
  await deps.crons.deleteForThread(threadId);
  // A run created while the others were being stopped is stopped on the next round.
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const active = await runs.active(threadId);
    if (active.length === 0) break;
    for (const run of active.reverse()) await manager.cancel(run, 'interrupt');
  }
  for (;;) {
    const page = await runs.list(threadId, { limit: 1000, offset: 0 });
    if (page.length === 0) break;
    for (const run of page) await runs.delete(run.run_id);
  }
  await threads.delete(threadId);
  await checkpointer.deleteThread(threadId);
  return true;
}

/** `DELETE /assistants/{id}?delete_threads=true`: the threads whose metadata names it. */
export async function deleteThreadsOfAssistant(deps: Deps, assistantId: string): Promise<void> {
  const owned = (await deps.threads.all('created_at', 'asc')).filter(
    (thread) => thread.metadata.assistant_id === assistantId,
  );
  for (const thread of owned) await deleteThread(deps, thread.thread_id);
}
