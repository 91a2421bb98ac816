import { z } from 'zod';

/** A billable trace as a LangSmith SDK run reports it; `user_id`/`api_key_id` may be unknown. */
export const traceInputSchema = z.object({
  run_id: z.uuid(),
  workspace_id: z.uuid(),
  project_id: z.uuid(),
  user_id: z.uuid().nullish(),
  api_key_id: z.uuid().nullish(),
  start_time: z.union([z.date(), z.iso.datetime({ offset: true })]),
});
export type TraceInput = z.input<typeof traceInputSchema>;
export type ParsedTrace = z.output<typeof traceInputSchema>;
