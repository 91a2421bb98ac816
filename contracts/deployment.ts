import { z } from 'zod';

/**
 * Wire shapes of the LangGraph-compatible deployment API (`/deployment`), shared by the server
 * and the SPA. They match what `@langchain/langgraph-sdk` reads, so the SPA can parse responses
 * from the embedded server and from a real LangGraph Platform deployment alike: fields this app
 * does not use are passed through, fields a real deployment may omit are optional.
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

const metadataSchema = z.record(z.string(), z.unknown()).nullable();

export const threadSchema = z.looseObject({
  thread_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  metadata: metadataSchema.optional(),
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
  metadata: metadataSchema.optional(),
  multitask_strategy: multitaskStrategySchema.nullable().optional(),
});
export type Run = z.infer<typeof runSchema>;

/** A text block, an image block, or any other structured block a provider may send. */
const contentBlockSchema = z.looseObject({ type: z.string() });
export const messageContentSchema = z.union([z.string(), z.array(contentBlockSchema)]);
export type MessageContent = z.infer<typeof messageContentSchema>;

export const toolCallSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

const messageBase = {
  id: z.string().nullish(),
  content: messageContentSchema,
  name: z.string().nullish(),
};

export const humanMessageSchema = z.looseObject({ ...messageBase, type: z.literal('human') });
export const aiMessageSchema = z.looseObject({
  ...messageBase,
  type: z.literal('ai'),
  tool_calls: z.array(toolCallSchema).default([]),
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
  values: z.looseObject({ messages: z.array(messageSchema).default([]) }),
  next: z.array(z.string()).default([]),
  created_at: z.string().nullish(),
});
export type ThreadState = z.infer<typeof threadStateSchema>;

/** A message as a run's input takes it: `role` (user/assistant/...) or `type`, and `content`. */
export const inputMessageSchema = z
  .looseObject({
    role: z.enum(['user', 'human', 'assistant', 'ai', 'system']).optional(),
    type: z.enum(['human', 'ai', 'system']).optional(),
    id: z.string().optional(),
    content: messageContentSchema,
  })
  .refine((message) => message.role !== undefined || message.type !== undefined, {
    message: 'each message needs a role or a type',
  });
export type InputMessage = z.infer<typeof inputMessageSchema>;

export const runInputSchema = z.looseObject({ messages: z.array(inputMessageSchema).min(1) });
export type RunInput = z.infer<typeof runInputSchema>;
