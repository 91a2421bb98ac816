import { z } from 'zod';
import { pruneStrategySchema, type ThreadTtl } from '../store/thread-ttl';

/** Request bodies of the thread endpoints, as the LangGraph API defines them. */

const record = z.record(z.string(), z.unknown());
export const threadStatusSchema = z.enum(['idle', 'busy', 'interrupted', 'error']);

/** `supersteps`: checkpoints to write on creation, each a list of updates as some node. */
const superstepSchema = z.looseObject({
  updates: z.array(z.looseObject({ values: z.unknown().optional(), as_node: z.string() })),
});
export type Superstep = z.infer<typeof superstepSchema>;

/** The `ttl` of a thread create or update: minutes (strategy `delete`) or `{ttl, strategy}`. */
export const threadTtlBodySchema = z
  .union([
    z.number().positive(),
    z.looseObject({ ttl: z.number().positive(), strategy: pruneStrategySchema.default('delete') }),
  ])
  .transform((ttl): ThreadTtl =>
    typeof ttl === 'number'
      ? { strategy: 'delete', minutes: ttl }
      : { strategy: ttl.strategy, minutes: ttl.ttl },
  );

export const createThreadBody = z.looseObject({
  thread_id: z.uuid().nullish(),
  metadata: record.nullish(),
  if_exists: z.enum(['raise', 'do_nothing']).nullish(),
  supersteps: z.array(superstepSchema).nullish(),
  ttl: threadTtlBodySchema.nullish(),
});

export const patchThreadBody = z.looseObject({
  metadata: record.nullish(),
  ttl: threadTtlBodySchema.nullish(),
});

/** `POST /threads/prune` (the SDK's `threads.prune`). */
export const pruneThreadsBody = z.looseObject({
  thread_ids: z.array(z.string()),
  strategy: pruneStrategySchema.default('delete'),
});

export const countThreadsBody = z.looseObject({
  metadata: record.nullish(),
  values: record.nullish(),
  status: threadStatusSchema.nullish(),
});

export const searchThreadsBody = countThreadsBody.extend({
  ids: z.array(z.string()).nullish(),
  limit: z.number().int().min(1).max(1000).nullish(),
  offset: z.number().int().min(0).nullish(),
  sort_by: z.enum(['thread_id', 'status', 'created_at', 'updated_at']).nullish(),
  sort_order: z.enum(['asc', 'desc']).nullish(),
  select: z.array(z.string()).nullish(),
});
export type SearchThreadsBody = z.infer<typeof searchThreadsBody>;

const checkpointSchema = z.looseObject({
  checkpoint_id: z.string().nullish(),
  checkpoint_ns: z.string().nullish(),
  checkpoint_map: record.nullish(),
});
export type CheckpointRef = z.infer<typeof checkpointSchema>;

export const updateStateBody = z.looseObject({
  values: z.union([record, z.array(record)]).nullish(),
  as_node: z.string().nullish(),
  checkpoint_id: z.string().nullish(),
  checkpoint: checkpointSchema.nullish(),
});

export const stateAtCheckpointBody = z.looseObject({
  checkpoint: checkpointSchema.nullish(),
  subgraphs: z.boolean().nullish(),
});

export const historyBody = z.looseObject({
  limit: z.number().int().min(1).max(1000).nullish(),
  before: z.union([z.string(), z.looseObject({ configurable: checkpointSchema })]).nullish(),
  metadata: record.nullish(),
  checkpoint: checkpointSchema.nullish(),
});
export type HistoryBody = z.infer<typeof historyBody>;

export const historyQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  before: z.string().optional(),
});
