import { z } from 'zod';
import { messageSchema, runInputSchema } from '@contracts/deployment';
import type { GraphSchemas } from './graph-registry';

const draft7 = (schema: z.core.$ZodType) =>
  z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;

/** The `agent` graph's state: `MessagesAnnotation`, i.e. one `messages` channel. */
const agentState = z.object({ messages: z.array(messageSchema) });

/**
 * Schemas of the demo graph, derived from the shared wire contract rather than written twice. It
 * reads no configurable and no context, hence the empty object schemas.
 */
export const AGENT_SCHEMAS: GraphSchemas = {
  input_schema: draft7(runInputSchema),
  output_schema: draft7(agentState),
  state_schema: draft7(agentState),
  config_schema: draft7(z.object({})),
  context_schema: draft7(z.object({})),
};
