import type { ModelPriceBody } from '@contracts/usage/model-price-body';
import { modelPriceSchema, type ModelPrice } from '@contracts/usage/model-price-map';

/** A workspace's entry from a create/replace body, optional fields at their defaults. */
export function modelPriceFromBody(
  id: string,
  workspaceId: string,
  body: ModelPriceBody,
): ModelPrice {
  return {
    id,
    tenant_id: workspaceId,
    name: body.name,
    match_pattern: body.match_pattern,
    match_path: body.match_path ?? ['model_name'],
    prompt_cost: body.prompt_cost,
    completion_cost: body.completion_cost,
    prompt_cost_details: body.prompt_cost_details ?? {},
    completion_cost_details: body.completion_cost_details ?? {},
    provider: body.provider ?? null,
    start_time: body.start_time ? new Date(body.start_time).toISOString() : null,
  };
}

/** An entry as stored (one JSON text per row), or undefined for a row that no longer parses. */
export function parseStoredModelPrice(text: string): ModelPrice | undefined {
  try {
    const parsed = modelPriceSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether two entries have the same match conditions (LangSmith answers 409 to a second one):
 * name, pattern, path, provider and start.
 */
export const sameConditions = (a: ModelPrice, b: ModelPrice): boolean =>
  a.name === b.name &&
  a.match_pattern === b.match_pattern &&
  a.match_path.join('\u0000') === b.match_path.join('\u0000') &&
  a.provider === b.provider &&
  a.start_time === b.start_time;

/** Thrown when an entry would repeat another's match conditions (409). */
export class ModelPriceConflictError extends Error {
  override name = 'ModelPriceConflictError';
}
