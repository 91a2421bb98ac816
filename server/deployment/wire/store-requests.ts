import { z } from 'zod';

/** Request bodies of the Store API, as the LangGraph API defines them. */

const namespace = z.array(z.string());
const record = z.record(z.string(), z.unknown());

export const putItemBody = z.looseObject({ namespace, key: z.string(), value: record });

export const deleteItemBody = z.looseObject({ namespace: namespace.nullish(), key: z.string() });

/** `GET /store/items?namespace=a.b&key=k`: the SDK joins the labels with '.'. */
export const getItemQuery = z.object({
  namespace: z
    .string()
    .optional()
    .transform((value) => (value ? value.split('.') : [])),
  key: z.string(),
});

export const searchItemsBody = z.looseObject({
  namespace_prefix: namespace,
  filter: record.nullish(),
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
  query: z.string().nullish(),
});

export const listNamespacesBody = z.looseObject({
  prefix: namespace.nullish(),
  suffix: namespace.nullish(),
  max_depth: z.number().int().min(1).nullish(),
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
});
