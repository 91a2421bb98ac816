import type { IngestProblem, RunOperation } from './run-operations';

/** Operations of a request, and problems found before any payload was validated. */
export interface ParsedRequest {
  operations: RunOperation[];
  /** Per run id (or, when the id itself is unusable, per location). */
  problems: Map<string, IngestProblem[]>;
  /** `feedback.<id>` parts of a multipart request, parsed JSON not yet validated. */
  feedback?: { payload: unknown; loc: (string | number)[] }[];
}

/** A problem that makes the whole request unusable (nothing is accepted). */
export class MalformedRequestError extends Error {
  constructor(readonly problem: IngestProblem) {
    super(problem.msg);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses JSON text, or throws the 422 problem naming `loc`. */
export function parseJsonPart(text: string, loc: (string | number)[]): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MalformedRequestError({
      loc,
      msg: `Invalid JSON: ${error instanceof Error ? error.message : String(error)}`,
      type: 'json_invalid',
    });
  }
}

/**
 * `POST /runs/batch`: `{"post": [run, ...], "patch": [run, ...]}` (either may be absent). An
 * item without a usable `id` is reported at its index; the batch itself must be an object.
 */
export function parseRunBatch(body: unknown): ParsedRequest {
  if (!isRecord(body)) {
    throw new MalformedRequestError({
      loc: ['body'],
      msg: 'Expected an object with "post" and/or "patch" arrays.',
      type: 'model_attributes_type',
    });
  }
  const parsed: ParsedRequest = { operations: [], problems: new Map() };
  for (const kind of ['post', 'patch'] as const) {
    const items = body[kind];
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items)) {
      throw new MalformedRequestError({
        loc: ['body', kind],
        msg: 'Input should be a valid list',
        type: 'list_type',
      });
    }
    items.forEach((item: unknown, index) => {
      const loc = ['body', kind, index];
      addOperation(parsed, kind, item, loc, isRecord(item) ? item.id : undefined);
    });
  }
  return parsed;
}

/** `POST /runs` (one create) and `PATCH /runs/{id}` (one update of the run in the URL). */
export function parseSingleRun(
  kind: 'post' | 'patch',
  body: unknown,
  urlRunId?: string,
): ParsedRequest {
  const parsed: ParsedRequest = { operations: [], problems: new Map() };
  const payload = kind === 'patch' && isRecord(body) ? { ...body, id: urlRunId } : body;
  addOperation(parsed, kind, payload, ['body'], urlRunId ?? (isRecord(body) ? body.id : undefined));
  return parsed;
}

function addOperation(
  parsed: ParsedRequest,
  kind: 'post' | 'patch',
  payload: unknown,
  loc: (string | number)[],
  id: unknown,
): void {
  if (typeof id === 'string' && id.length > 0) {
    parsed.operations.push({ kind, runId: id, payload, loc });
    return;
  }
  parsed.problems.set(`#${loc.join('.')}`, [
    { loc: [...loc, 'id'], msg: 'Field required: a run id (UUID).', type: 'missing' },
  ]);
}
