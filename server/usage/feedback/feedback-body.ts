import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { NewFeedback } from '@server/usage/store/feedback-store';

const uuid = z.uuid({ message: 'Input should be a valid UUID' });

/**
 * LangSmith's `FeedbackCreateSchema` as the langsmith SDK's `createFeedback` sends it, to
 * `POST /feedback` and as a `feedback.<id>` part of `POST /runs/multipart`. Fields this console
 * does not read (value, correction, feedback_source, ...) are kept as sent and answered back.
 */
export const feedbackBodySchema = z.looseObject({
  id: uuid.optional(),
  run_id: uuid.nullish(),
  trace_id: uuid.nullish(),
  session_id: uuid.nullish(),
  key: z.string({ message: 'Field required' }).min(1, { message: 'Field required' }),
  score: z.union([z.number(), z.boolean()]).nullish(),
  comment: z.string().nullish(),
  extend_trace_retention: z.boolean().nullish(),
});
export type FeedbackBody = z.output<typeof feedbackBodySchema>;

/**
 * The feedback to store: its id (one is given when the body has none), the trace it may upgrade
 * (`trace_id`, else `run_id`: a root run is its own trace) and whether it asks to
 * (`extend_trace_retention` absent or true, LangSmith's default).
 */
export function toNewFeedback(body: FeedbackBody, at: Date): NewFeedback {
  const id = (body.id ?? randomUUID()).toLowerCase();
  const runId = body.run_id?.toLowerCase() ?? null;
  const traceId = body.trace_id?.toLowerCase() ?? runId;
  const stamp = at.toISOString();
  return {
    id,
    runId,
    traceId,
    key: body.key,
    extend: body.extend_trace_retention !== false,
    body: {
      ...body,
      id,
      run_id: runId,
      trace_id: traceId,
      session_id: body.session_id ?? null,
      score: body.score ?? null,
      value: body.value ?? null,
      comment: body.comment ?? null,
      correction: body.correction ?? null,
      feedback_source: body.feedback_source ?? null,
      created_at: stamp,
      modified_at: stamp,
    },
  };
}
