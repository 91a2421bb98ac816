import { z } from 'zod';
import { validationProblems } from '@server/http/validation-issues';

/**
 * The fields of a LangSmith run create/update that billing reads; everything else (inputs,
 * outputs, events, ...) is accepted and not kept. Ids are UUIDs (the SDK sends v7).
 */
export const runPayloadSchema = z.looseObject({
  id: z.uuid(),
  trace_id: z.uuid().nullish(),
  parent_run_id: z.uuid().nullish(),
  dotted_order: z.string().max(10_000).nullish(),
  session_name: z.string().min(1).max(1000).nullish(),
});
export type RunPayload = z.infer<typeof runPayloadSchema>;

/** One problem, FastAPI-style: `loc` names the part (`post.<id>.inputs`) or the batch item. */
export interface IngestProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** A run create (`post`) or update (`patch`) as sent, before validation of its payload. */
export interface RunOperation {
  kind: 'post' | 'patch';
  /** The run id the client addressed (part name, URL or payload). */
  runId: string;
  /** The payload, or undefined if only problems were found for it. */
  payload: unknown;
  /** Where it was in the request, for error locations. */
  loc: (string | number)[];
}

/** What billing needs from one run, once all its parts are valid. */
export interface AcceptedRun {
  runId: string;
  /** A root run (no parent): one trace. Children are accepted and not billed. */
  root: boolean;
  projectName: string;
}

/** LangSmith's project for runs sent without `session_name`. */
export const DEFAULT_PROJECT = 'default';

/** Whether a create or update describes a root run: LangSmith bills one trace per root. */
export function isRootRun(kind: 'post' | 'patch', payload: RunPayload): boolean {
  if (payload.parent_run_id) return false;
  if (payload.trace_id) return payload.trace_id === payload.id;
  if (payload.dotted_order) return !payload.dotted_order.includes('.');
  // A create without trace fields has no parent; an update without them cannot tell, and the
  // create it belongs to is what bills the trace.
  return kind === 'post';
}

const issueProblems = (loc: (string | number)[], error: z.ZodError): IngestProblem[] =>
  validationProblems(loc, error);

/**
 * Groups operations by run id and decides each run as a whole: a run with any invalid part is
 * rejected entirely (its problems reported), the others are accepted. `problems` holds problems
 * already found while parsing (bad JSON, ...), keyed by run id.
 */
export function decideRuns(
  operations: RunOperation[],
  parseProblems: Map<string, IngestProblem[]>,
): { accepted: AcceptedRun[]; problems: IngestProblem[] } {
  const byRun = new Map<string, RunOperation[]>();
  for (const operation of operations) {
    const list = byRun.get(operation.runId);
    if (list) list.push(operation);
    else byRun.set(operation.runId, [operation]);
  }
  for (const runId of parseProblems.keys()) if (!byRun.has(runId)) byRun.set(runId, []);
  const accepted: AcceptedRun[] = [];
  const problems: IngestProblem[] = [];
  for (const [runId, runOperations] of byRun) {
    const runProblems = [...(parseProblems.get(runId) ?? [])];
    const payloads: { kind: 'post' | 'patch'; payload: RunPayload }[] = [];
    for (const operation of runOperations) {
      const parsed = runPayloadSchema.safeParse(operation.payload);
      if (!parsed.success) {
        runProblems.push(...issueProblems(operation.loc, parsed.error));
      } else if (parsed.data.id !== runId) {
        runProblems.push({
          loc: [...operation.loc, 'id'],
          msg: `Run id ${parsed.data.id} does not match ${runId}.`,
          type: 'value_error',
        });
      } else {
        payloads.push({ kind: operation.kind, payload: parsed.data });
      }
    }
    if (runProblems.length > 0 || payloads.length === 0) {
      problems.push(...runProblems);
      continue;
    }
    const named = payloads.find(({ payload }) => payload.session_name);
    accepted.push({
      runId,
      root: payloads.some(({ kind, payload }) => isRootRun(kind, payload)),
      projectName: named?.payload.session_name ?? DEFAULT_PROJECT,
    });
  }
  return { accepted, problems };
}
