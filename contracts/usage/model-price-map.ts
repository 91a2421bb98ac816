import { z } from 'zod/mini';

/**
 * The model price map's wire format, LangSmith's `/api/v1/model-price-map` shape: an entry names a
 * model, matches run model names with `match_pattern` (a regular expression), optionally only for
 * one `provider`, and gives US dollars per token, per token type. `start_time`: the entry prices
 * runs ingested from then on. Entries with `tenant_id` null are the defaults (list prices); a
 * workspace's own entries win over them.
 */

export const modelPriceSchema = z.object({
  id: z.string(),
  /** The workspace of a custom entry; null for a default (list price). */
  tenant_id: z.nullable(z.string()),
  name: z.string(),
  match_pattern: z.string(),
  match_path: z.array(z.string()),
  prompt_cost: z.number(),
  completion_cost: z.number(),
  prompt_cost_details: z.record(z.string(), z.number()),
  completion_cost_details: z.record(z.string(), z.number()),
  provider: z.nullable(z.string()),
  start_time: z.nullable(z.string()),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

export const modelPriceListSchema = z.array(modelPriceSchema);
