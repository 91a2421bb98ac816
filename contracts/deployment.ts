import { z } from 'zod/mini';

/**
 * Wire shapes of the LangGraph-compatible deployment API (`/deployment`), shared by the server
 * and the SPA. They match what `@langchain/langgraph-sdk` reads, so the SPA can parse responses
 * from the embedded server and from a real LangGraph Platform deployment alike: fields this app
 * does not use are passed through, fields a real deployment may omit are optional. Written with
 * `zod/mini` like the usage contracts: the SPA shares zod's core with the usage tab, and classic
 * zod here put ~10 KB of brotli into the usage tab's first load. The server's classic schemas
 * take these as fields as they are (both are zod core types).
 */

export const runStatusSchema = z.enum([
  'pending',
  'running',
  'error',
  'success',
  'timeout',
  'interrupted',
]);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** Statuses after which a run never changes again. */
export const FINISHED_RUN_STATUSES: readonly RunStatus[] = [
  'error',
  'success',
  'timeout',
  'interrupted',
];

/** What happens to the runs already active on a thread when a new run is created on it. */
export const multitaskStrategySchema = z.enum(['reject', 'interrupt', 'rollback', 'enqueue']);
export type MultitaskStrategy = z.infer<typeof multitaskStrategySchema>;

/** The strategy applied when a create-run request names none (as the Agent Server docs state). */
export const DEFAULT_MULTITASK_STRATEGY: MultitaskStrategy = 'enqueue';

const metadataSchema = z.nullable(z.record(z.string(), z.unknown()));

export const threadSchema = z.looseObject({
  thread_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  metadata: z.optional(metadataSchema),
  status: z.enum(['idle', 'busy', 'interrupted', 'error']),
});
export type Thread = z.infer<typeof threadSchema>;

export const runSchema = z.looseObject({
  run_id: z.string(),
  thread_id: z.string(),
  assistant_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  status: runStatusSchema,
  metadata: z.optional(metadataSchema),
  multitask_strategy: z.optional(z.nullable(multitaskStrategySchema)),
});
export type Run = z.infer<typeof runSchema>;

/** A text block, an image block, or any other structured block a provider may send. */
const contentBlockSchema = z.looseObject({ type: z.string() });
export const messageContentSchema = z.union([z.string(), z.array(contentBlockSchema)]);
export type MessageContent = z.infer<typeof messageContentSchema>;

export const toolCallSchema = z.looseObject({
  id: z.optional(z.string()),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

const messageBase = {
  id: z.nullish(z.string()),
  content: messageContentSchema,
  name: z.nullish(z.string()),
};

export const humanMessageSchema = z.looseObject({ ...messageBase, type: z.literal('human') });
export const aiMessageSchema = z.looseObject({
  ...messageBase,
  type: z.literal('ai'),
  tool_calls: z._default(z.array(toolCallSchema), []),
});
export const toolMessageSchema = z.looseObject({
  ...messageBase,
  type: z.literal('tool'),
  tool_call_id: z.string(),
});
export const systemMessageSchema = z.looseObject({ ...messageBase, type: z.literal('system') });

export const messageSchema = z.discriminatedUnion('type', [
  humanMessageSchema,
  aiMessageSchema,
  toolMessageSchema,
  systemMessageSchema,
]);
export type Message = z.infer<typeof messageSchema>;

/** `GET /threads/{id}/state`. A thread with no run yet has `values: {}`: messages default to []. */
export const threadStateSchema = z.looseObject({
  values: z.looseObject({ messages: z._default(z.array(messageSchema), []) }),
  next: z._default(z.array(z.string()), []),
  created_at: z.nullish(z.string()),
});
export type ThreadState = z.infer<typeof threadStateSchema>;

/** A message as a run's input takes it: `role` (user/assistant/...) or `type`, and `content`. */
export const inputMessageSchema = z
  .looseObject({
    role: z.optional(z.enum(['user', 'human', 'assistant', 'ai', 'system'])),
    type: z.optional(z.enum(['human', 'ai', 'system'])),
    id: z.optional(z.string()),
    content: messageContentSchema,
  })
  .check(
    z.refine((message) => message.role !== undefined || message.type !== undefined, {
      message: 'each message needs a role or a type',
    }),
  );
export type InputMessage = z.infer<typeof inputMessageSchema>;

export const runInputSchema = z.looseObject({
  messages: z.array(inputMessageSchema).check(z.minLength(1)),
});
export type RunInput = z.infer<typeof runInputSchema>;
