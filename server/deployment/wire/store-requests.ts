import { z } from 'zod';

/** Request bodies of the Store API, as the LangGraph API defines them. */

const namespace = z.array(z.string());
const record = z.record(z.string(), z.unknown());

/** `ttl`: minutes until the item expires, `null` never; left out, the deployment's default. */
export const putItemBody = z.looseObject({
  namespace,
  key: z.string(),
  value: record,
  ttl: z.number().positive().nullish(),
});

export const deleteItemBody = z.looseObject({ namespace: namespace.nullish(), key: z.string() });

/** `GET /store/items?namespace=a.b&key=k`: the SDK joins the labels with '.'. */
export const getItemQuery = z.object({
  namespace: z
    .string()
    .optional()
    .transform((value) => (value ? value.split('.') : [])),
  key: z.string(),
  /** Whether this read restarts the item's time to live (default: `store.ttl.refresh_on_read`). */
  refresh_ttl: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
});

export const searchItemsBody = z.looseObject({
  namespace_prefix: namespace,
  filter: record.nullish(),
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
  query: z.string().nullish(),
  refresh_ttl: z.boolean().nullish(),
});

export const listNamespacesBody = z.looseObject({
  prefix: namespace.nullish(),
  suffix: namespace.nullish(),
  max_depth: z.number().int().min(1).nullish(),
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
});
