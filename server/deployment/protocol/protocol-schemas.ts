import { isSupportedChannel } from '@langchain/langgraph/stream';
import { z } from 'zod';
import { multitaskStrategySchema } from '@contracts/deployment';

const record = z.record(z.string(), z.unknown());
const channel = z.string().refine(isSupportedChannel, {
  message:
    'not a protocol channel (values, updates, messages, tools, custom, custom:<name>, lifecycle, input, checkpoints, tasks)',
});
const namespaces = z.array(z.array(z.string()));

/** A command's envelope (`POST .../commands`, a WebSocket text frame). */
export const commandSchema = z.object({
  id: z.number().int().nonnegative(),
  method: z.string().min(1),
  params: record.optional(),
});
export type ProtocolCommand = z.infer<typeof commandSchema>;

/** The body of `POST /threads/{id}/stream/events`: strict, as the official server's. */
export const eventFilterSchema = z.strictObject({
  channels: z.array(channel),
  namespaces: namespaces.optional(),
  depth: z.number().int().nonnegative().optional(),
  since: z.number().int().nonnegative().optional(),
});

export const subscribeParams = z.object({
  channels: z.array(channel).min(1),
  namespaces: namespaces.optional(),
  depth: z.number().int().nonnegative().optional(),
  since: z.number().int().nonnegative().optional(),
});

export const unsubscribeParams = z.object({ subscription_id: z.string() });

/** `run.start`: what the SDK sends (`assistant_id`, `input`, `config`, `metadata`, strategy). */
export const runStartParams = z.object({
  assistant_id: z.string().min(1),
  input: z.unknown().optional(),
  config: record.nullish(),
  metadata: record.nullish(),
  multitaskStrategy: z.nullish(multitaskStrategySchema),
});

const response = z.object({ interrupt_id: z.string().min(1), response: z.unknown() });

/** `input.respond`: one interrupt's answer, or several at one checkpoint. */
export const inputRespondParams = z.object({
  interrupt_id: z.string().min(1).optional(),
  response: z.unknown().optional(),
  responses: z.array(response).min(1).optional(),
  config: record.nullish(),
  metadata: record.nullish(),
  update: z.union([record, z.array(z.unknown())]).nullish(),
  goto: z.union([z.string(), z.array(z.string())]).nullish(),
});

export const stateGetParams = z.object({ keys: z.array(z.string()).optional() });
