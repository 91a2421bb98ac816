/**
 * Feedback on runs and the retention upgrades it causes, the port's `feedback` concern. A
 * trace is upgraded to extended retention once, by the first feedback that asks for it: the
 * upgrade's primary key (the trace's run id) is what makes it once-only, on one DuckDB writer and
 * across scale-out replicas alike. Deleting feedback never undoes an upgrade: it was billed.
 */
export interface FeedbackStore {
  /**
   * Stores each feedback by id (a resend with the same id changes nothing) in `by.workspaceId`,
   * and upgrades its trace when it asks to (`extend`) and the trace is a base-retention trace of
   * that workspace. Returns the trace ids upgraded now.
   */
  create(items: readonly NewFeedback[], by: FeedbackAuthor, at: Date): Promise<string[]>;
  /** One feedback of those workspaces, or undefined. */
  get(workspaceIds: readonly string[], id: string): Promise<StoredFeedback | undefined>;
  /** Feedback of those workspaces, newest first. */
  list(workspaceIds: readonly string[], query: FeedbackQuery): Promise<StoredFeedback[]>;
  /** Removes one feedback; false when those workspaces hold none of that id. */
  remove(workspaceIds: readonly string[], id: string): Promise<boolean>;
}

/** Who sent feedback: its upgrades are counted to this workspace's trace, this user and key. */
export interface FeedbackAuthor {
  workspaceId: string;
  userId: string | null;
  apiKeyId: string | null;
}

/** A feedback to store, as parsed from the SDK's body (`feedback/feedback-body.ts`). */
export interface NewFeedback {
  id: string;
  runId: string | null;
  /** The trace (root run) it upgrades: the body's `trace_id`, else its `run_id`. */
  traceId: string | null;
  key: string;
  /** Whether it upgrades its trace (`extend_trace_retention` is not false). */
  extend: boolean;
  /** The body as stored and answered back (LangSmith's `FeedbackSchema` fields). */
  body: Record<string, unknown>;
}

export interface StoredFeedback {
  id: string;
  workspaceId: string;
  createdAt: Date;
  body: Record<string, unknown>;
}

export interface FeedbackQuery {
  runIds?: readonly string[];
  keys?: readonly string[];
  limit: number;
  offset: number;
}
