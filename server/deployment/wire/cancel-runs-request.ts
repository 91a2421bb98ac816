import { z } from 'zod';

/**
 * `POST /runs/cancel` (the SDK's `runs.cancelMany`): either `thread_id` with `run_ids`, or a
 * `status` (`pending`, `running`, `all`) that picks the active runs of every thread.
 */
export const cancelRunsBody = z
  .object({
    thread_id: z.uuid().nullish(),
    run_ids: z.array(z.uuid()).min(1).nullish(),
    status: z.enum(['pending', 'running', 'all']).nullish(),
  })
  .refine((body) => !(body.status && (body.thread_id || body.run_ids)), {
    message: 'Give either a status, or a thread_id with run_ids, not both',
  })
  .refine((body) => Boolean(body.status) || Boolean(body.thread_id && body.run_ids), {
    message: 'Give a status, or a thread_id with run_ids',
  });

export type CancelRunsBody = z.infer<typeof cancelRunsBody>;

export const cancelRunsQuery = z.object({
  action: z.enum(['interrupt', 'rollback']).default('interrupt'),
});
