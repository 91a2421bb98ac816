import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { jsonError } from '@server/http/json-error';
import {
  MalformedRequestError,
  parseJsonPart,
  parseRunBatch,
  parseSingleRun,
  type ParsedRequest,
} from '../ingest/parse-run-batch';
import { parseRunMultipart } from '../ingest/parse-run-multipart';
import { parseFeedback, storeFeedback } from '../feedback/store-feedback';
import { decideRuns, type IngestProblem } from '../ingest/run-operations';
import type { UsageStore } from '../store/usage-store';
import { limitExceededResponse } from './limit-exceeded';
import { authorizeWriter, type IngestTarget } from './authorize-writer';

export interface IngestRoutesOptions {
  /** Largest request body accepted (413 above). */
  maxBodyBytes: number;
  /** Told after each batch that billed or refused traces in a workspace (usage-limit alerts). */
  onBilled?: (workspaceId: string) => void;
  /** Told after each request that reached billing: traces billed, each refusal's limit type. */
  onIngested?: (billed: number, refusedBy: string[]) => void;
}

type IngestEnv = { Variables: { target: IngestTarget } };

/**
 * LangSmith's run ingestion as the langsmith SDK calls it (relative to `/api/v1`, and also
 * mounted at the root for the SDK's default layout): `GET /info`, `POST /runs/multipart`,
 * `POST /runs/batch`, `POST /runs`, `PATCH /runs/{id}`. Each handler: authorise -> parse ->
 * decide each run -> bill the root runs in one transaction -> 202, or 422 listing the rejected
 * runs' problems (the valid runs of the request are still accepted).
 */
export function createIngestRoutes(backend: UsageStore, options: IngestRoutesOptions): Hono {
  const app = new Hono<IngestEnv>();

  // Read by the SDK before it batches: its batch size limits and which endpoint to use.
  app.get('/info', (c) =>
    c.json({
      version: '0.16.14',
      license_expiration_time: null,
      batch_ingest_config: {
        use_multipart_endpoint: true,
        scale_up_qsize_trigger: 1000,
        scale_up_nthreads_limit: 16,
        scale_down_nempty_trigger: 4,
        size_limit: 100,
        // Below the body limit: the multipart framing adds a little to the runs' own bytes.
        size_limit_bytes: Math.floor(options.maxBodyBytes * 0.8),
      },
      instance_flags: { gzip_body_enabled: false, zstd_compression_enabled: false },
    }),
  );

  // Authorise before reading the body: an unknown key learns nothing about size limits.
  app.use('/runs', authorize(backend));
  app.use('/runs/*', authorize(backend));
  const limit = bodyLimit({
    maxSize: options.maxBodyBytes,
    onError: (c) => jsonError(c, 413, `Request body larger than ${options.maxBodyBytes} bytes.`),
  });
  app.use('/runs', limit);
  app.use('/runs/*', limit);

  const bill = async (c: Context<IngestEnv>, parse: () => Promise<ParsedRequest>) => {
    let parsed: ParsedRequest;
    try {
      parsed = await parse();
    } catch (error) {
      if (error instanceof MalformedRequestError) return problemsResponse(c, [error.problem], 0);
      throw error;
    }
    const { accepted, problems } = decideRuns(parsed.operations, parsed.problems);
    const target = c.get('target');
    const roots = accepted.filter((run) => run.root);
    const result =
      roots.length > 0
        ? await backend.billing.ingestRuns({ ...target, runs: roots })
        : { inserted: 0, duplicates: 0, refused: [], ingestedAt: new Date() };
    // Feedback after the runs: a part naming a trace of this same request finds it billed.
    const feedbackAt = new Date();
    const feedback = parseFeedback(parsed.feedback ?? [], feedbackAt);
    problems.push(...feedback.problems);
    await storeFeedback(backend, target, feedback.items, feedbackAt);
    if (result.inserted > 0 || result.refused.length > 0) options.onBilled?.(target.workspaceId);
    options.onIngested?.(
      result.inserted,
      result.refused.map((run) => run.limitType),
    );
    if (result.refused.length > 0) {
      return limitExceededResponse(c, target, result, accepted.length, problems);
    }
    if (problems.length > 0) return problemsResponse(c, problems, accepted.length);
    return c.json(
      { accepted: accepted.length, traces_billed: result.inserted, ingested_at: result.ingestedAt },
      202,
    );
  };

  app.post('/runs/multipart', (c) =>
    bill(c, async () => {
      const type = c.req.header('content-type') ?? '';
      if (!type.toLowerCase().startsWith('multipart/form-data')) {
        throw new MalformedRequestError({
          loc: ['header', 'content-type'],
          msg: 'Expected multipart/form-data.',
          type: 'value_error',
        });
      }
      if (c.req.header('content-encoding')) {
        throw new MalformedRequestError({
          loc: ['header', 'content-encoding'],
          msg: 'Compressed bodies are not supported (see gzip_body_enabled in /info).',
          type: 'value_error',
        });
      }
      return parseRunMultipart(await readForm(c.req.raw));
    }),
  );
  app.post('/runs/batch', (c) =>
    bill(c, async () => parseRunBatch(parseJsonPart(await c.req.text(), ['body']))),
  );
  app.post('/runs', (c) =>
    bill(c, async () => parseSingleRun('post', parseJsonPart(await c.req.text(), ['body']))),
  );
  app.patch('/runs/:runId', (c) =>
    bill(c, async () =>
      parseSingleRun('patch', parseJsonPart(await c.req.text(), ['body']), c.req.param('runId')),
    ),
  );
  // Mountable into plain apps: the `target` variable stays internal to these routes.
  return new Hono().route('/', app);
}

function authorize(backend: UsageStore) {
  return async (c: Context<IngestEnv>, next: () => Promise<void>) => {
    const auth = await authorizeWriter(c, backend);
    if ('response' in auth) return auth.response;
    c.set('target', auth.target);
    await next();
  };
}

async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch (error) {
    throw new MalformedRequestError({
      loc: ['body'],
      msg: `Malformed multipart body: ${error instanceof Error ? error.message : String(error)}`,
      type: 'value_error',
    });
  }
}

/** 422 with every problem; `accepted` says how many runs of the request were still taken. */
function problemsResponse(c: Context, problems: IngestProblem[], accepted: number) {
  return c.json({ detail: problems, accepted }, 422);
}
