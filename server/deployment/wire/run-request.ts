import { z } from 'zod';
import { multitaskStrategySchema } from '@contracts/deployment';

/** The stream modes the SDK names (`StreamMode`), as the platform accepts them. */
export const streamModeSchema = z.enum([
  'values',
  'messages',
  'messages-tuple',
  'updates',
  'events',
  'debug',
  'custom',
  'tasks',
  'checkpoints',
]);
export type StreamMode = z.infer<typeof streamModeSchema>;

const nodeList = z.union([z.literal('*'), z.array(z.string())]);

/** `command` of a run: resume an interrupt, jump to a node, or update the state first. */
const commandSchema = z.looseObject({
  resume: z.unknown().optional(),
  goto: z.union([z.string(), z.array(z.string())]).nullish(),
  update: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullish(),
});
export type RunCommand = z.infer<typeof commandSchema>;

/**
 * The body of every run-creating endpoint (create, wait, stream; on a thread or stateless).
 * `input` may be `null` (continue from the checkpoint, e.g. after a breakpoint); for the demo
 * graph, leaving it out needs a `command` (checked in run-creation).
 */
export const createRunBody = z.looseObject({
  assistant_id: z.string().min(1),
  // Checked against the demo graph's messages input in run-creation; loaded graphs take any.
  input: z.record(z.string(), z.unknown()).nullish(),
  command: commandSchema.nullish(),
  multitask_strategy: z.nullish(multitaskStrategySchema),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  if_not_exists: z.enum(['create', 'reject']).nullish(),
  stream_mode: z.union([streamModeSchema, z.array(streamModeSchema)]).nullish(),
  stream_subgraphs: z.boolean().nullish(),
  stream_resumable: z.boolean().nullish(),
  on_disconnect: z.enum(['cancel', 'continue']).nullish(),
  on_completion: z.enum(['delete', 'keep']).nullish(),
  after_seconds: z.number().min(0).nullish(),
  interrupt_before: nodeList.nullish(),
  interrupt_after: nodeList.nullish(),
  config: z.looseObject({ recursion_limit: z.number().int().min(1).nullish() }).nullish(),
  // A path (`/custom/webhook`) is a route of this server, as on the platform.
  webhook: z.union([z.url({ protocol: /^https?$/ }), z.string().regex(/^\/[^/]/)]).nullish(),
  checkpoint: z.looseObject({ checkpoint_id: z.string().nullish() }).nullish(),
  checkpoint_id: z.string().nullish(),
});
export type CreateRunBody = z.infer<typeof createRunBody>;

/** What a run needs besides its input to execute and stream; stored with the run. */
export interface RunKwargs {
  stream_mode: StreamMode[];
  stream_subgraphs: boolean;
  stream_resumable: boolean;
  interrupt_before?: '*' | string[];
  interrupt_after?: '*' | string[];
  recursion_limit?: number;
  command?: RunCommand;
  webhook?: string;
  /** ISO time before which the run stays pending (`after_seconds`). */
  not_before?: string;
  /** The run's config merged over its assistant's (`configurable`, `tags`, ...). */
  config?: Record<string, unknown> & { configurable?: Record<string, unknown> };
  /** The run's `context` (over its assistant's), for graphs with a context schema. */
  context?: unknown;
  /** A stateless run's thread, deleted once the run has finished (`on_completion: delete`). */
  temporary?: boolean;
  /** Started through protocol v2 (`run.start`): streams LangGraph's v3 protocol events. */
  protocol?: boolean;
}

/**
 * The stored kwargs of a validated body; `values` is the default stream mode. `recursionLimit`
 * is the one of the run's config merged over its assistant's.
 */
export function runKwargsOf(
  body: CreateRunBody,
  stateless: boolean,
  recursionLimit: number | null = body.config?.recursion_limit ?? null,
): RunKwargs {
  const modes = body.stream_mode ?? [];
  const streamMode = Array.isArray(modes) ? modes : [modes];
  return {
    stream_mode: streamMode.length > 0 ? [...new Set(streamMode)] : ['values'],
    stream_subgraphs: body.stream_subgraphs ?? false,
    stream_resumable: body.stream_resumable ?? false,
    ...(body.interrupt_before && { interrupt_before: body.interrupt_before }),
    ...(body.interrupt_after && { interrupt_after: body.interrupt_after }),
    ...(recursionLimit && { recursion_limit: recursionLimit }),
    ...(body.command && { command: body.command }),
    ...(body.webhook && { webhook: body.webhook }),
    ...(body.after_seconds &&
      body.after_seconds > 0 && {
        not_before: new Date(Date.now() + body.after_seconds * 1000).toISOString(),
      }),
    ...(stateless && (body.on_completion ?? 'delete') === 'delete' && { temporary: true }),
  };
}
