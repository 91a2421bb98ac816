import type { IngestTarget } from '@server/usage/http/authorize-writer';
import type { IngestProblem } from '@server/usage/ingest/run-operations';
import type { UsageStore } from '@server/usage/store/usage-store';
import { validationProblems } from '@server/http/validation-issues';
import { feedbackBodySchema, toNewFeedback } from './feedback-body';
import type { NewFeedback } from '@server/usage/store/feedback-store';

/** Feedback bodies, validated: the ones to store and the problems of the others. */
export function parseFeedback(
  parts: readonly { payload: unknown; loc: (string | number)[] }[],
  at: Date,
): { items: NewFeedback[]; problems: IngestProblem[] } {
  const items: NewFeedback[] = [];
  const problems: IngestProblem[] = [];
  for (const part of parts) {
    const parsed = feedbackBodySchema.safeParse(part.payload);
    if (parsed.success) items.push(toNewFeedback(parsed.data, at));
    else problems.push(...validationProblems(part.loc, parsed.error));
  }
  return { items, problems };
}

/** Stores feedback from an ingestion target (its workspace, user and key); the traces upgraded. */
export function storeFeedback(
  backend: UsageStore,
  target: IngestTarget,
  items: readonly NewFeedback[],
  at: Date,
): Promise<string[]> {
  if (items.length === 0) return Promise.resolve([]);
  return backend.feedback.create(
    items,
    { workspaceId: target.workspaceId, userId: target.userId, apiKeyId: target.apiKeyId },
    at,
  );
}
