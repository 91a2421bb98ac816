import type { MetadataFilter } from '../store/metadata-filter';
import { matchesFilters } from '../store/metadata-filter';
import type { PruneStrategy } from '../store/thread-ttl';
import type { DeploymentDeps } from './deployment-deps';
import { deleteThread } from './thread-deletion';

type Deps = Pick<
  DeploymentDeps,
  'threads' | 'runs' | 'manager' | 'checkpointer' | 'crons' | 'checkpoints'
>;

/**
 * `POST /threads/prune`: `delete` removes each thread as `DELETE /threads/{id}` does;
 * `keep_latest` keeps each thread and its latest checkpoint, deleting the older ones. A thread
 * with an active run is left as it is for `keep_latest` (its run may roll back to a checkpoint
 * this would delete). Unknown threads, and threads `filters` hide from the caller, are skipped.
 * Answers how many threads were pruned.
 */
export async function pruneThreads(
  deps: Deps,
  threadIds: readonly string[],
  strategy: PruneStrategy,
  filters?: MetadataFilter,
): Promise<number> {
  let pruned = 0;
  for (const threadId of new Set(threadIds)) {
    const thread = await deps.threads.get(threadId);
    if (!thread || !matchesFilters(thread.metadata, filters)) continue;
    if (strategy === 'delete') {
      if (await deleteThread(deps, threadId)) pruned += 1;
      continue;
    }
    if ((await deps.runs.active(threadId)).length > 0) continue;
    await deps.checkpoints.keepLatest(threadId);
    pruned += 1;
  }
  return pruned;
}
