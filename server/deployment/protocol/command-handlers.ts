import { DEFAULT_MULTITASK_STRATEGY } from '@contracts/deployment';
import type { z } from 'zod';
import type { ProtocolAdapter, ProtocolRunRequest } from './protocol-adapter';
import type { CommandResponse, ProtocolErrorCode } from './protocol-types';
import {
  inputRespondParams,
  type ProtocolCommand,
  runStartParams,
  stateGetParams,
} from './protocol-schemas';
import type { RunSessions } from './run-sessions';
import type { ThreadEventLog } from './thread-event-log';
import type { RunOwner } from '../auth/auth-types';

interface HandlerDeps {
  adapter: ProtocolAdapter;
  log: ThreadEventLog;
  sessions: RunSessions;
}

/** A command on a thread; `baseUrl` resolves what a run needs from the request (webhooks). */
export interface CommandContext {
  threadId: string;
  command: ProtocolCommand;
  baseUrl: string;
  /** The caller, as authorization gave it: the owner of the runs it starts. */
  owner?: RunOwner;
}

type Parsed<T> = { ok: true; data: T } | { ok: false; response: Promise<CommandResponse> };

/**
 * `run.start`, `input.respond` and `state.get`, shared by both transports (subscriptions are
 * the transport's own). Answers are the protocol's `{type: "success" | "error", ...}`.
 */
export function createCommandHandlers({ adapter, log, sessions }: HandlerDeps) {
  const meta = async (threadId: string) => ({
    thread_id: threadId,
    applied_through_seq: await log.lastSeq(threadId),
  });
  const success = async (
    ctx: CommandContext,
    result: Record<string, unknown>,
  ): Promise<CommandResponse> => ({
    type: 'success',
    id: ctx.command.id,
    result,
    meta: await meta(ctx.threadId),
  });
  const failure = async (
    ctx: CommandContext,
    error: ProtocolErrorCode,
    message: string,
  ): Promise<CommandResponse> => ({
    type: 'error',
    id: ctx.command.id,
    error,
    message,
    meta: await meta(ctx.threadId),
  });

  function parse<T>(ctx: CommandContext, schema: z.ZodType<T>): Parsed<T> {
    const parsed = schema.safeParse(ctx.command.params ?? {});
    if (parsed.success) return { ok: true, data: parsed.data };
    const detail = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'params'}: ${issue.message}`)
      .join('; ');
    return {
      ok: false,
      response: failure(ctx, 'invalid_argument', `${ctx.command.method} ${detail}`),
    };
  }

  async function start(
    ctx: CommandContext,
    request: ProtocolRunRequest,
  ): Promise<{ refused: Promise<CommandResponse> } | { runId: string }> {
    // The run's session is queued under the thread's lock: sessions follow the runs' order.
    const started = await adapter.startRun(
      ctx.threadId,
      request,
      ctx.baseUrl,
      (run) => sessions.start({ threadId: ctx.threadId, runId: run.runId, graphName: run.graphId }),
      ctx.owner,
    );
    if ('refused' in started) return { refused: failure(ctx, 'invalid_argument', started.detail) };
    return { runId: started.runId };
  }

  async function runStart(ctx: CommandContext): Promise<CommandResponse> {
    const params = parse(ctx, runStartParams);
    if (!params.ok) return params.response;
    const { assistant_id, input, config, metadata, multitaskStrategy } = params.data;
    // As the official server: input sent while the thread waits on an interrupt resumes it.
    const waiting =
      input != null && ((await adapter.threadState(ctx.threadId))?.interrupts.length ?? 0) > 0;
    const started = await start(ctx, {
      assistantId: assistant_id,
      input: input ?? null,
      ...(waiting && { command: { resume: input } }),
      config,
      metadata,
      strategy: multitaskStrategy ?? DEFAULT_MULTITASK_STRATEGY,
    });
    return 'refused' in started ? started.refused : success(ctx, { run_id: started.runId });
  }

  async function inputRespond(ctx: CommandContext): Promise<CommandResponse> {
    const params = parse(ctx, inputRespondParams);
    if (!params.ok) return params.response;
    const { interrupt_id, response, responses, config, metadata, update, goto } = params.data;
    const answers = responses ?? (interrupt_id ? [{ interrupt_id, response }] : []);
    if (answers.length === 0) {
      return failure(
        ctx,
        'invalid_argument',
        'input.respond requires an interrupt_id or responses.',
      );
    }
    const state = await adapter.threadState(ctx.threadId);
    if (!state?.assistantId) {
      return failure(
        ctx,
        'no_such_run',
        `Thread ${ctx.threadId} has no run; call run.start first.`,
      );
    }
    if (state.interrupts.length === 0) {
      return failure(
        ctx,
        'invalid_argument',
        'input.respond can only be used while the run is interrupted.',
      );
    }
    const known = new Set(state.interrupts.map((request) => request.interrupt_id));
    const unknown = answers.find((answer) => !known.has(answer.interrupt_id));
    if (unknown) {
      return failure(
        ctx,
        'no_such_interrupt',
        `Interrupt ${unknown.interrupt_id} is not pending on thread ${ctx.threadId}.`,
      );
    }
    const resume = Object.fromEntries(
      answers.map((answer) => [answer.interrupt_id, answer.response]),
    );
    const started = await start(ctx, {
      assistantId: state.assistantId,
      input: null,
      command: { resume, ...(update && { update }), ...(goto && { goto }) },
      config,
      metadata,
      strategy: DEFAULT_MULTITASK_STRATEGY,
    });
    return 'refused' in started ? started.refused : success(ctx, {});
  }

  async function stateGet(ctx: CommandContext): Promise<CommandResponse> {
    const params = parse(ctx, stateGetParams);
    if (!params.ok) return params.response;
    const state = await adapter.threadState(ctx.threadId);
    if (!state)
      return failure(
        ctx,
        'no_such_run',
        `Thread ${ctx.threadId} has no state yet; call run.start first.`,
      );
    const { keys } = params.data;
    const values = keys
      ? Object.fromEntries(Object.entries(state.values).filter(([key]) => keys.includes(key)))
      : state.values;
    return success(ctx, { values, ...(state.checkpoint && { checkpoint: state.checkpoint }) });
  }

  async function dispatch(ctx: CommandContext): Promise<CommandResponse> {
    switch (ctx.command.method) {
      case 'run.start':
        return runStart(ctx);
      case 'input.respond':
        return inputRespond(ctx);
      case 'state.get':
        return stateGet(ctx);
      case 'agent.getTree':
      case 'subscription.reconnect':
        return failure(
          ctx,
          'not_supported',
          `${ctx.command.method} is not supported by this server.`,
        );
      default:
        return failure(ctx, 'unknown_command', `Unknown protocol command: ${ctx.command.method}`);
    }
  }

  return {
    /** Answers a command; a failure inside is an `unknown_error` answer, never a 5xx. */
    async handle(ctx: CommandContext): Promise<CommandResponse> {
      try {
        return await dispatch(ctx);
      } catch (error) {
        console.warn(`Protocol command ${ctx.command.method} failed: ${String(error)}`);
        const message = error instanceof Error ? error.message : String(error);
        return failure(ctx, 'unknown_error', message);
      }
    },
    failure,
    success,
  };
}

export type CommandHandlers = ReturnType<typeof createCommandHandlers>;
