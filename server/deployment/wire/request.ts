import type { Context } from 'hono';
import { z } from 'zod';
import { runStatusSchema } from '@contracts/deployment';
import { readJsonText } from './json-limits';

const metadata = z.record(z.string(), z.unknown()).nullish();

export const createThreadBody = z.looseObject({
  thread_id: z.uuid().nullish(),
  metadata,
  if_exists: z.enum(['raise', 'do_nothing']).nullish(),
});

export const listRunsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(10),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.optional(runStatusSchema),
});

export const cancelRunQuery = z.object({
  wait: z.enum(['0', '1', 'true', 'false']).default('0'),
  action: z.enum(['interrupt', 'rollback']).default('interrupt'),
});

/** `GET .../runs/{run_id}/stream`: `cancel_on_disconnect` as the SDK sends it ("0" or "1"). */
export const joinStreamQuery = z.looseObject({
  cancel_on_disconnect: z.enum(['0', '1', 'true', 'false']).default('0'),
});

export const searchAssistantsBody = z.looseObject({
  graph_id: z.string().nullish(),
  name: z.string().nullish(),
  limit: z.number().int().min(1).max(1000).default(10),
  offset: z.number().int().min(0).default(0),
});

type Parsed<T> = { ok: true; data: T } | { ok: false; detail: string };

/** Validates with `schema`; on failure a readable detail naming each bad field (for a 422). */
export function parseWith<T>(schema: z.core.$ZodType<T>, value: unknown): Parsed<T> {
  // The core type: the shared contracts are zod/mini schemas (lighter in the SPA), these classic.
  const result = z.safeParse(schema, value);
  if (result.success) return { ok: true, data: result.data };
  const detail = result.error.issues
    .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
    .join('; ');
  return { ok: false, detail };
}

/**
 * The JSON body (an empty body reads as `{}`), validated; malformed, too deep, or holding a string
 * the stores cannot keep is a 422 too.
 */
export async function parseJsonBody<T>(c: Context, schema: z.core.$ZodType<T>): Promise<Parsed<T>> {
  const text = await c.req.text();
  if (text.trim() === '') return parseWith(schema, {});
  const json = readJsonText(text);
  return json.ok ? parseWith(schema, json.value) : json;
}
