import { z } from 'zod';

/** Request bodies of the assistant endpoints, as the LangGraph API defines them. */

const record = z.record(z.string(), z.unknown());
const config = z.looseObject({
  tags: z.array(z.string()).nullish(),
  recursion_limit: z.number().int().nullish(),
  configurable: record.nullish(),
});

export const createAssistantBody = z.looseObject({
  assistant_id: z.uuid().nullish(),
  graph_id: z.string().min(1),
  config: config.nullish(),
  context: z.unknown().optional(),
  metadata: record.nullish(),
  if_exists: z.enum(['raise', 'do_nothing']).nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
});

export const patchAssistantBody = createAssistantBody
  .omit({ assistant_id: true, if_exists: true })
  .extend({ graph_id: z.string().min(1).nullish() });

export const countAssistantsBody = z.looseObject({
  graph_id: z.string().nullish(),
  name: z.string().nullish(),
  metadata: record.nullish(),
});

export const searchAssistantsBody = countAssistantsBody.extend({
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
  sort_by: z.enum(['assistant_id', 'graph_id', 'created_at', 'updated_at', 'name']).nullish(),
  sort_order: z.enum(['asc', 'desc']).nullish(),
  select: z.array(z.string()).nullish(),
});

export const versionsBody = z.looseObject({
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
  metadata: record.nullish(),
});

export const setLatestBody = z.looseObject({ version: z.number().int() });

/** `?xray=`: a boolean, or the depth of subgraphs to draw. */
export const xrayQuery = z.object({
  xray: z
    .string()
    .optional()
    .transform((value) => {
      if (value === undefined) return undefined;
      const depth = Number(value);
      if (Number.isInteger(depth) && depth > 0) return depth;
      return ['true', 'yes'].includes(value.toLowerCase());
    }),
});

export const recurseQuery = z.object({
  recurse: z
    .string()
    .optional()
    .transform((value) => ['true', '1', 'yes'].includes((value ?? '').toLowerCase())),
});
