import type { Context } from 'hono';
import { jsonError } from '@server/http/json-error';
import { inBackground } from '@server/lib/in-background';
import { runOwnerOf } from '../auth/auth-door';
import { FINISHED_RUN_STATUSES } from '@contracts/deployment';
import type { RunRecord } from '../store/records';
import { streamInterrupted, type RunStreamEvent, type RunStreamLog } from '../runs/run-stream-log';
import { createRun } from '../use-cases/create-run';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import { parseJsonBody } from '../wire/request';
import { type CreateRunBody, createRunBody } from '../wire/run-request';
import { sseResponse } from '../wire/sse';
import { filtered, streamModeFilter } from '../wire/stream-mode-filter';

export interface CreatedRun {
  run: RunRecord;
  body: CreateRunBody;
}

/**
 * Validates a run-creating request and creates the run: on the thread `threadId`, or, when it is
 * `null` (stateless `/runs/...`), on a new thread deleted after the run unless `on_completion` is
 * `keep`. A `Response` when refused (404, 409, 422), else the run.
 */
export async function createRunFromRequest(
  c: Context,
  deps: DeploymentDeps,
  threadId: string | null,
): Promise<Response | CreatedRun> {
  const body = await parseJsonBody(c, createRunBody);
  if (!body.ok) return jsonError(c, 422, body.detail);
  const owner = runOwnerOf(c);
  const created = await createRun(deps, body.data, threadId, c.req.url, c.req.raw.headers, owner);
  if ('refused' in created) return jsonError(c, created.refused, created.detail);
  const { run } = created;
  c.header(
    'Content-Location',
    threadId === null ? `/runs/${run.run_id}` : `/threads/${run.thread_id}/runs/${run.run_id}`,
  );
  return { run, body: body.data };
}

/**
 * The SSE answer of a run: its events from index `from` (0 for the creator; after `Last-Event-ID`
 * on a resume) until it ends, only those of `modes` when given (a join's `stream_mode`).
 * `cancelOnDisconnect` interrupts the run when the client goes away.
 */
export function streamRunEvents(
  c: Context,
  deps: DeploymentDeps,
  run: Pick<RunRecord, 'run_id' | 'thread_id' | 'kwargs' | 'status'>,
  options: { from: number; cancelOnDisconnect: boolean; modes?: string[] },
) {
  if (run.kwargs.stream_resumable) {
    // The SDK reconnects to `Location` with `Last-Event-ID` when a resumable stream drops.
    c.header('Location', `/threads/${run.thread_id}/runs/${run.run_id}/stream`);
  }
  const keep = streamModeFilter(options.modes);
  const events = (signal: AbortSignal) =>
    filtered(neverEmptyWhileActive(deps.streams, run, options.from, signal), keep);
  return sseResponse(c, events, {
    onDisconnect: () => {
      if (!options.cancelOnDisconnect) return;
      const cancelling = deps.runs.get(run.thread_id, run.run_id).then(async (current) => {
        if (current) await deps.manager.cancel(current, 'interrupt');
      });
      inBackground(`Run ${run.run_id} was not cancelled on disconnect`, cancelling);
    },
  });
}

/**
 * The run's log from `from`; when read from the start it yields nothing although the run was
 * active (every active run's log holds its `metadata` event at least), the log was lost (the
 * cluster's Redis restarted empty): the stream then ends with an error, not as a finished run's.
 */
async function* neverEmptyWhileActive(
  streams: RunStreamLog,
  run: Pick<RunRecord, 'run_id' | 'status'>,
  from: number,
  signal: AbortSignal,
): AsyncGenerator<RunStreamEvent> {
  let read = false;
  for await (const event of streams.read(run.run_id, from, signal)) {
    read = true;
    yield event;
  }
  if (read || from > 0 || signal.aborted || FINISHED_RUN_STATUSES.includes(run.status)) return;
  yield {
    id: '0',
    event: 'error',
    data: streamInterrupted(run.run_id, 'its log is gone'),
  };
}
