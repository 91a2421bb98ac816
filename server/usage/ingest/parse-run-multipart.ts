import { z } from 'zod';
import { MalformedRequestError, parseJsonPart, type ParsedRequest } from './parse-run-batch';

/** The run fields the SDK sends as parts of their own (`post.<id>.inputs`, ...). */
const FIELD_PARTS = new Set(['inputs', 'outputs', 'events', 'extra', 'error', 'serialized']);
const uuid = z.uuid();

/**
 * `POST /runs/multipart`, as the langsmith SDK writes it: per run a `post.<id>` or `patch.<id>`
 * part (the run without its big fields), optional `post.<id>.<field>` parts (inputs, outputs,
 * events, extra, error, serialized), `attachment.<id>.<name>` parts (any content) and
 * `feedback.<id>` parts. JSON parts must parse; a part that does not belongs to its run, which is
 * then rejected, and a part whose name is none of these makes the request malformed.
 */
export function parseRunMultipart(form: FormData): ParsedRequest {
  const parsed: ParsedRequest = { operations: [], problems: new Map() };
  const report = (runId: string, part: string, msg: string, type: string) => {
    parsed.problems.set(runId, [
      ...(parsed.problems.get(runId) ?? []),
      { loc: ['body', part], msg, type },
    ]);
  };
  for (const [part, value] of form) {
    const [prefix = '', runId = '', field, ...rest] = part.split('.');
    const known =
      ((prefix === 'post' || prefix === 'patch') &&
        (field === undefined || (FIELD_PARTS.has(field) && rest.length === 0))) ||
      (prefix === 'attachment' && field !== undefined) ||
      (prefix === 'feedback' && field === undefined);
    if (!known || !uuid.safeParse(runId).success) {
      throw new MalformedRequestError({
        loc: ['body', part],
        msg: `Unknown part "${part}": expected post.<run id>[.<field>], patch.<run id>[.<field>], attachment.<run id>.<name> or feedback.<id>.`,
        type: 'value_error',
      });
    }
    // Attachments are opaque files; they are accepted and not kept.
    if (prefix === 'attachment') continue;
    if (typeof value !== 'string') {
      report(runId, part, 'Expected a JSON part (no filename).', 'json_type');
      continue;
    }
    let json: unknown;
    try {
      json = parseJsonPart(value, ['body', part]);
    } catch (error) {
      if (!(error instanceof MalformedRequestError)) throw error;
      // Feedback has no run to reject with it: the request is malformed.
      if (prefix === 'feedback') throw error;
      report(runId, part, error.problem.msg, error.problem.type);
      continue;
    }
    if ((prefix === 'post' || prefix === 'patch') && field === undefined) {
      parsed.operations.push({ kind: prefix, runId, payload: json, loc: ['body', part] });
    }
    if (prefix === 'feedback') {
      parsed.feedback = [...(parsed.feedback ?? []), { payload: json, loc: ['body', part] }];
    }
  }
  return parsed;
}
