import fc from 'fast-check';
import type { FuzzIds, FuzzRoute } from './fuzz-targets';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const QUERY_KEYS = [
  'start_time',
  'end_time',
  'workspace_ids',
  'group_by',
  'limit',
  'offset',
  'stream_mode',
  'cancel_on_disconnect',
  'wait',
  'action',
  'namespace',
  'key',
  'xray',
];
const HOSTILE = ['%00', '%F0%9F%92%A5x', '..', '%2e%2e', 'a'.repeat(300), '%ZZ', '-1', 'null'];

/** A path parameter: mostly an id that exists (of its kind), else a near miss or hostile text. */
function parameter(ids: FuzzIds, name: string): fc.Arbitrary<string> {
  const real = ids[name] ?? [];
  return fc.oneof(
    { arbitrary: real.length > 0 ? fc.constantFrom(...real) : fc.uuid(), weight: 8 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.constantFrom(...HOSTILE), weight: 1 },
    { arbitrary: fc.string().map(encodeURIComponent), weight: 1 },
  );
}

/** A route's path with each `:param` filled in. */
function filledPath(route: FuzzRoute, ids: FuzzIds): fc.Arbitrary<string> {
  const parts = route.path
    .split('/')
    .map((part) => (part.startsWith(':') ? parameter(ids, part.slice(1)) : fc.constant(part)));
  return fc.tuple(...parts).map((filled) => filled.join('/'));
}

const runBody = (ids: FuzzIds) =>
  fc.record(
    {
      assistant_id: fc.oneof(fc.constantFrom(...(ids.assistantId ?? ['agent'])), fc.string()),
      input: fc.oneof(
        fc.constant({ messages: [{ role: 'user', content: 'weather in sf?' }] }),
        fc.jsonValue(),
      ),
      stream_mode: fc.oneof(fc.constantFrom('values', 'updates', 'x'), fc.jsonValue()),
      multitask_strategy: fc.constantFrom('rollback', 'interrupt', 'enqueue', 'reject', 'x'),
      if_not_exists: fc.constantFrom('create', 'reject', 'x'),
      metadata: fc.jsonValue(),
      limit: fc.oneof(fc.integer(), fc.jsonValue()),
    },
    { requiredKeys: [] },
  );

/** Protocol v2: a command (`POST .../commands`) or an events filter (`POST .../stream/events`). */
const protocolBody = (ids: FuzzIds) =>
  fc.oneof(
    fc.record(
      {
        id: fc.oneof(fc.nat(), fc.integer(), fc.string()),
        method: fc.constantFrom(
          'run.start',
          'input.respond',
          'state.get',
          'subscription.subscribe',
          'x',
        ),
        params: fc.oneof(
          runBody(ids).map(({ multitask_strategy, ...rest }) => ({
            ...rest,
            multitaskStrategy: multitask_strategy,
          })),
          fc.record(
            { interrupt_id: fc.string(), response: fc.jsonValue(), keys: fc.jsonValue() },
            { requiredKeys: [] },
          ),
          fc.jsonValue(),
        ),
      },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        channels: fc.oneof(
          fc.subarray(['values', 'messages', 'lifecycle', 'custom:x', 'nope']),
          fc.jsonValue(),
        ),
        namespaces: fc.oneof(fc.constant([[]]), fc.jsonValue()),
        depth: fc.oneof(fc.nat(3), fc.integer()),
        since: fc.oneof(fc.nat(50), fc.jsonValue()),
      },
      { requiredKeys: [] },
    ),
  );

/** Strings Postgres cannot store (NUL, lone surrogates), which every store must refuse alike. */
const unstorable = fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800');
const nested = (depth: number, inner: string) => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);

/**
 * Bodies meant to break a handler: JSON nested thousands of levels deep (arrays or objects, in
 * the fields the stores keep and filter on), strings Postgres cannot store in every such field,
 * and a body over the size limit.
 */
const hostileBody = (ids: FuzzIds) =>
  fc.oneof(
    fc.nat(4000).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
    fc
      .tuple(
        fc.constantFrom('metadata', 'input', 'values', 'value', 'filter', 'config'),
        fc.nat(4000),
      )
      .map(([field, depth]) => `{"assistant_id":"agent","${field}":${nested(depth, '1')}}`),
    fc.tuple(runBody(ids), unstorable).map(([record, text]) =>
      JSON.stringify({
        ...record,
        metadata: { [text]: text },
        input: { messages: [{ role: 'user', content: text }] },
        values: { text },
        value: { text },
        namespace: [text],
        key: text,
        config: { configurable: { text } },
      }),
    ),
    fc.constant(JSON.stringify({ metadata: { blob: 'x'.repeat(2 * 1024 * 1024) } })),
  );

/** What LangSmith ingestion takes: a run, a batch, or something near it. */
const ingestBody = fc.oneof(
  fc.record({ id: fc.uuid(), name: fc.string(), session_name: fc.string() }),
  fc.record({ post: fc.array(fc.record({ id: fc.uuid() }), { maxLength: 3 }) }),
);

/**
 * One request to a real route of the app (its method mostly, sometimes another), its ids mostly
 * ones that exist, with fuzzed query strings, bodies and headers; now and then a path near a
 * real one instead.
 */
export function fuzzRequest(routes: FuzzRoute[], ids: FuzzIds): fc.Arbitrary<FuzzRequest> {
  const workspaceIds = ids.workspaceId ?? [];
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom(...workspaceIds, 'workspace', 'user', 'project', 'api_key', 'true', '1'),
    fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    fc.constantFrom('2026-01-05', '9999-12-31', '0001-01-01T00:00:00Z', '1e400', '-1', ''),
    fc.jsonValue().map((json) => JSON.stringify(json)),
  );
  const query = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string()), value), {
      maxLength: 6,
    })
    .map((pairs) => {
      const search = new URLSearchParams(pairs).toString();
      return search ? `?${search}` : '';
    });
  const anyMethod = fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH');
  const routed = fc.constantFrom(...routes).chain((route) =>
    fc.record({
      method: fc.oneof({ arbitrary: fc.constant(route.method), weight: 9 }, anyMethod),
      path: fc.tuple(filledPath(route, ids), query).map(([path, search]) => `${path}${search}`),
    }),
  );
  const nearMiss = fc.record({
    method: anyMethod,
    path: fc
      .tuple(fc.constantFrom(...routes), fc.constantFrom('/x', '/', '//', '/%2e%2e'))
      .map(([route, tail]) => `${route.path.replace(/:[A-Za-z]+/g, 'x')}${tail}`),
  });
  const target = fc.oneof({ arbitrary: routed, weight: 19 }, nearMiss);
  const body = fc.oneof(
    fc.constant(undefined),
    runBody(ids).map((record) => JSON.stringify(record)),
    ingestBody.map((record) => JSON.stringify(record)),
    protocolBody(ids).map((record) => JSON.stringify(record)),
    fc.jsonValue().map((json) => JSON.stringify(json)),
    fc.string(),
    hostileBody(ids),
  );
  // Mostly what a client of the API sends, so most requests reach the handlers; now and then
  // a foreign Origin or a non-JSON body, which the browser checks must refuse.
  const headers = fc
    .tuple(
      fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain'),
      fc.constantFrom(
        'lsv2_demo_admin',
        'lsv2_demo_admin',
        'lsv2_demo_limited',
        'lsv2_demo_noperm',
        '',
      ),
      fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 8 },
        {
          arbitrary: fc.constantFrom(
            'https://attacker.example',
            'null',
            'https://smith.langchain.com',
          ),
          weight: 1,
        },
      ),
    )
    .map(([type, key, origin]) => ({
      'content-type': type,
      ...(key ? { 'x-api-key': key } : {}),
      ...(origin ? { origin } : {}),
    }));
  return fc
    .record({ target, headers, body })
    .map(({ target: { method, path }, headers: chosen, body: text }) => ({
      method,
      path,
      headers: chosen,
      ...(method === 'GET' || text === undefined ? {} : { body: text }),
    }));
}
