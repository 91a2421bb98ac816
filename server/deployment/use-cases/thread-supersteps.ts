import type { DeploymentDeps } from './deployment-deps';
import type { ThreadRecord } from '../store/records';
import { deleteThread } from './thread-deletion';
import type { Superstep } from '../wire/thread-requests';

/**
 * Writes `POST /threads` `supersteps` (one checkpoint per superstep, each update as its node)
 * into a thread just created. A thread that cannot hold that history is not kept: on refusal it
 * is deleted and the graph's reason returned.
 */
export async function writeSupersteps(
  deps: DeploymentDeps,
  thread: ThreadRecord,
  supersteps: Superstep[],
): Promise<string | undefined> {
  const { runtime } = await deps.graphs.forThread(thread);
  const steps = supersteps.map(({ updates }) => ({
    updates: updates.map((update) => ({ values: update.values, asNode: update.as_node })),
  }));
  try {
    const config = { configurable: { thread_id: thread.thread_id, checkpoint_ns: '' } };
    await runtime.bulkUpdateState(config, steps);
    return undefined;
  } catch (error) {
    await deleteThread(deps, thread.thread_id);
    return error instanceof Error ? error.message : String(error);
  }
}
