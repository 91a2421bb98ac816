import fc from 'fast-check';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Ids that exist, so that some requests get past the 404s to the deeper code. */
export interface FuzzTargets {
  workspaceIds: string[];
  threadIds: string[];
}

const USAGE_PATHS = [
  '/orgs/current/billing/granular-usage',
  '/orgs/current/billing/granular-usage/export',
  '/workspaces',
];
const QUERY_KEYS = ['start_time', 'end_time', 'workspace_ids', 'group_by', 'limit', 'offset'];

/** Path segments and query values: real ones, near misses, and hostile text. */
function pieces(targets: FuzzTargets) {
  const id = fc.oneof(
    { arbitrary: fc.constantFrom(...targets.threadIds, ...targets.workspaceIds), weight: 4 },
    fc.uuid(),
    fc.constantFrom('%00', '%F0%9F%92%A5x', '..', '%2e%2e', 'a'.repeat(300), '%ZZ'),
    fc.string().map(encodeURIComponent),
  );
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom(...targets.workspaceIds, 'workspace', 'user', 'project', 'api_key'),
    fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    fc.constantFrom('2026-01-05', '9999-12-31', '0001-01-01T00:00:00Z', '1e400', '-1', ''),
  );
  return { id, value };
}

function deploymentPath(id: fc.Arbitrary<string>) {
  return fc.oneof(
    fc.constant('/threads'),
    id.map((t) => `/threads/${t}`),
    id.map((t) => `/threads/${t}/state`),
    id.map((t) => `/threads/${t}/runs`),
    id.map((t) => `/threads/${t}/runs/wait`),
    id.map((t) => `/threads/${t}/commands`),
    id.map((t) => `/threads/${t}/stream/events`),
    fc.tuple(id, id).map(([t, r]) => `/threads/${t}/runs/${r}`),
    fc
      .tuple(id, id, fc.constantFrom('join', 'cancel', 'stream'))
      .map(([t, r, action]) => `/threads/${t}/runs/${r}/${action}`),
    fc.constantFrom('/assistants/agent', '/assistants/search', '/info', '/ok'),
  );
}

const runBody = fc.record(
  {
    assistant_id: fc.oneof(fc.constant('agent'), fc.string()),
    input: fc.oneof(
      fc.constant({ messages: [{ role: 'user', content: 'weather in sf?' }] }),
      fc.jsonValue(),
    ),
    multitask_strategy: fc.constantFrom('rollback', 'interrupt', 'enqueue', 'reject', 'x'),
    if_not_exists: fc.constantFrom('create', 'reject', 'x'),
    metadata: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

/** Protocol v2: a command (`POST .../commands`) or an events filter (`POST .../stream/events`). */
const protocolBody = fc.oneof(
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
        runBody.map(({ multitask_strategy, ...rest }) => ({
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

const join2 = ([prefix, search]: [string, string]) => `${prefix}${search}`;

/** One random request to the usage API, the deployment API or the console proxy. */
export function fuzzRequest(targets: FuzzTargets): fc.Arbitrary<FuzzRequest> {
  const { id, value } = pieces(targets);
  const query = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string()), value), {
      maxLength: 6,
    })
    .map((pairs) => {
      const search = new URLSearchParams(pairs).toString();
      return search ? `?${search}` : '';
    });
  const usagePath = fc.oneof(
    fc.constantFrom(...USAGE_PATHS),
    id.map((x) => `/${x}`),
  );
  const join = ([prefix, rest, search]: [string, string, string]) => `${prefix}${rest}${search}`;
  const path: fc.Arbitrary<string> = fc.oneof(
    fc.tuple(fc.constantFrom('/api/v1', '/_console/usage'), usagePath, query).map(join),
    fc
      .tuple(fc.constantFrom('/deployment', '/_console/deployment'), deploymentPath(id), query)
      .map(join),
    fc.tuple(fc.constantFrom('/_console/config', '/healthz', '/nope'), query).map(join2),
  );
  const body = fc.oneof(
    fc.constant(undefined),
    runBody.map((record) => JSON.stringify(record)),
    protocolBody.map((record) => JSON.stringify(record)),
    fc.jsonValue().map((json) => JSON.stringify(json)),
    fc.string(),
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
        { arbitrary: fc.constantFrom('https://attacker.example', 'null'), weight: 1 },
      ),
    )
    .map(([type, key, origin]) => ({
      'content-type': type,
      ...(key ? { 'x-api-key': key } : {}),
      ...(origin ? { origin } : {}),
    }));
  return fc
    .record({
      method: fc.constantFrom('GET', 'GET', 'POST', 'POST', 'DELETE', 'PUT', 'PATCH'),
      path,
      headers,
      body,
    })
    .map(({ method, path: target, headers: chosen, body: text }) => ({
      method,
      path: target,
      headers: chosen,
      ...(method === 'GET' || text === undefined ? {} : { body: text }),
    }));
}
