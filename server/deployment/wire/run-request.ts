import { z } from 'zod';
import { multitaskStrategySchema } from '@contracts/deployment';
import { type RunKwargs, STREAM_MODES } from '../store/records';

export const streamModeSchema = z.enum(STREAM_MODES);

const nodeList = z.union([z.literal('*'), z.array(z.string())]);

/** `command` of a run (see RunCommand). */
const commandSchema = z.looseObject({
  resume: z.unknown().optional(),
  goto: z.union([z.string(), z.array(z.string())]).nullish(),
  update: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullish(),
});

/**
 * The body of every run-creating endpoint (create, wait, stream; on a thread or stateless).
 * `input` may be `null` (continue from the checkpoint, e.g. after a breakpoint); for the demo
 * graph, leaving it out needs a `command` (checked in use-cases/create-run.ts).
 */
export const createRunBody = z.looseObject({
  assistant_id: z.string().min(1),
  // Checked against the demo graph's messages input in use-cases/create-run.ts; loaded graphs take any.
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
