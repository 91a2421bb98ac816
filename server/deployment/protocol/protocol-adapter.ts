import type { MultitaskStrategy, RunStatus } from '@contracts/deployment';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import type { RunOwner } from '../auth/auth-types';
import { createRun } from '../use-cases/create-run';
import { type CreateRunBody, createRunBody } from '../wire/run-request';
import { serializeState } from '../wire/serialize';
import type { InputRequest, SourceEvent } from './event-normaliser';
import { inputRequestsOf } from './event-normaliser';

/** What the official server asks of a protocol run (`DEFAULT_RUN_STREAM_MODES`, subgraphs). */
const PROTOCOL_RUN_FIELDS = {
  stream_mode: ['values', 'updates', 'messages-tuple', 'custom', 'tasks'],
  stream_subgraphs: true,
  stream_resumable: true,
  if_not_exists: 'create',
} as const;

export interface ProtocolRunRequest {
  assistantId: string;
  input: unknown;
  /** A resume: `{resume, update?, goto?}` (input.respond, or run.start on an interrupted thread). */
  command?: CreateRunBody['command'];
  config?: Record<string, unknown> | null;
  metadata?: Record<string, unknown> | null;
  strategy: MultitaskStrategy;
}

export type ProtocolRunStart = { runId: string } | { refused: 404 | 409 | 422; detail: string };

/** A protocol run just created, as the hook under the thread's lock sees it. */
export interface CreatedProtocolRun {
  runId: string;
  graphId: string;
}

export interface ThreadSnapshot {
  values: Record<string, unknown>;
  checkpoint?: { id: string; ns?: string };
  /** Interrupts waiting for `input.respond`. */
  interrupts: InputRequest[];
  /** The assistant of the thread's latest run (a resume runs it again). */
  assistantId?: string;
}

/**
 * The one place protocol v2 reaches the deployment: it creates runs as the v1 routes do (the
 * run manager applies the multitask strategy, rollback included), reads a run's stream log,
 * its status and the thread's state. Every call is awaited, so stores that answer
 * asynchronously fit behind it unchanged.
 */
export function createProtocolAdapter(deps: DeploymentDeps) {
  return {
    /** Creates the run; `onCreated` runs under the thread's lock once it exists. */
    async startRun(
      threadId: string,
      request: ProtocolRunRequest,
      baseUrl: string,
      onCreated: (run: CreatedProtocolRun) => Promise<void>,
      owner: RunOwner = {},
    ): Promise<ProtocolRunStart> {
      const body = createRunBody.safeParse({
        ...PROTOCOL_RUN_FIELDS,
        assistant_id: request.assistantId,
        input: request.command ? null : request.input,
        ...(request.command && { command: request.command }),
        ...(request.config && { config: request.config }),
        ...(request.metadata && { metadata: request.metadata }),
        multitask_strategy: request.strategy,
      });
      if (!body.success) {
        const issue = body.error.issues[0];
        return { refused: 422, detail: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` };
      }
      const created = await createRun(deps, body.data, threadId, baseUrl, undefined, {
        ...owner,
        kwargs: { protocol: true },
        onCreated: (run, graphId) => onCreated({ runId: run.run_id, graphId }),
      });
      return 'refused' in created ? created : { runId: created.run.run_id };
    },

    /** The run's stream-log events from the first, until its stream ends or `signal` aborts. */
    runEvents: (runId: string, signal: AbortSignal): AsyncIterable<SourceEvent> =>
      deps.streams.read(runId, 0, signal),

    /** The run's status, or `undefined` once it has been deleted (rolled back). */
    async runStatus(threadId: string, runId: string): Promise<RunStatus | undefined> {
      return (await deps.runs.get(threadId, runId))?.status;
    },

    /** The thread's state now, or `undefined` when the thread does not exist. */
    async threadState(threadId: string): Promise<ThreadSnapshot | undefined> {
      const thread = await deps.threads.get(threadId);
      if (!thread) return undefined;
      const { runtime, foreign } = await deps.graphs.forThread(thread);
      const snapshot = await runtime.getState({ configurable: { thread_id: threadId } });
      const state = serializeState(snapshot, foreign);
      const id = state.checkpoint?.checkpoint_id;
      const assistantId = thread.metadata.assistant_id;
      return {
        ...(typeof assistantId === 'string' && { assistantId }),
        values: state.values,
        ...(id && { checkpoint: { id, ns: state.checkpoint?.checkpoint_ns ?? '' } }),
        interrupts: state.tasks.flatMap((task) => inputRequestsOf(task.interrupts)),
      };
    },
  };
}

export type ProtocolAdapter = ReturnType<typeof createProtocolAdapter>;
