import type { RunRecord } from '../store/records';
import { isRecord } from '../wire/json-contains';
import { serializeValues } from '../wire/serialize';
import type { DeploymentDeps } from './deployment-deps';

type Deps = Pick<DeploymentDeps, 'threads' | 'graphs' | 'streams'>;

/**
 * What join (and wait) answers once a thread's run is done: as the official server, the run's
 * last `values` event, kept with its stream log for a minute (no checkpoint read); else, or when
 * the run ended on an interrupt, the thread's state values (LangGraph's shape).
 */
export async function joinResult({ threads, graphs, streams }: Deps, run: RunRecord) {
  if (run.status === 'success') {
    const last = await streams.result(run.run_id);
    if (isRecord(last) && !('__interrupt__' in last)) return last;
  }
  // The graph of the thread's latest run (its metadata), which knows the state's channels;
  // with one graph served, it is that one, and the thread need not be read.
  const served =
    graphs.sole() ??
    (await graphs.forThread({
      thread_id: run.thread_id,
      metadata: (await threads.get(run.thread_id))?.metadata ?? {},
    }));
  const snapshot = await served.runtime.getState({ configurable: { thread_id: run.thread_id } });
  const values = serializeValues(snapshot.values, served.foreign);
  if (run.status !== 'error') return values;
  // The streamed error names the class (e.g. GraphRecursionError), as the platform's join does.
  const streamed = await streams.errorOf(run.run_id);
  const fallback = { error: 'RunError', message: run.error ?? 'Run failed' };
  return { ...values, __error__: streamed ?? fallback };
}

/**
 * What wait answers for a stateless run, read from its stream log (its thread may already be
 * deleted): the last values, with the run's error when it failed; `undefined` when the run was
 * deleted (rolled back).
 */
export async function statelessResult({ streams }: Pick<Deps, 'streams'>, runId: string) {
  await streams.ended(runId);
  const values = await streams.result(runId);
  if (values === undefined) return undefined;
  const error = await streams.errorOf(runId);
  return error ? { ...(values ?? {}), __error__: error } : values;
}
