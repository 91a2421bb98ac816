import { createHash } from 'node:crypto';
import { z } from 'zod';
import { WORKSPACE_METADATA_KEY } from '../runs/run-tracing';
import { workspaceLabel } from '../store/scoped-kv-store';
import {
  type AuthDecision,
  type AuthPolicy,
  AuthRefusal,
  type AuthUser,
  OPEN_DECISION,
} from './auth-types';

/** The part of LangSmith's `GET /api/v1/workspaces` answer a key check reads. */
const workspacesSchema = z.array(z.object({ id: z.string(), read_only: z.boolean() }));

/** The permission a key needs for anything but reads (LangSmith's name for creating runs). */
export const RUNS_CREATE_PERMISSION = 'runs:create';

/** The metadata the registry gives the system assistant of each graph. */
const SYSTEM_ASSISTANTS = { created_by: 'system' };

/** Actions a read-only key may take. */
const READ_ACTIONS = new Set(['read', 'search', 'get', 'list_namespaces']);

/** Longer headers cannot be a key; refusing them early keeps hashing bounded. */
const MAX_KEY_LENGTH = 512;

/** A key's answer is reused this long: the check costs one HTTP call per key every few seconds. */
const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 1_000;

export interface LangSmithPolicyOptions {
  /** The LangSmith API base (`…/api/v1`) that answers for a key; undefined while not yet known. */
  apiBase: () => string | undefined;
  ttlMs?: number;
  fetch?: typeof fetch;
}

const missingKey = () =>
  new AuthRefusal(401, 'Missing authentication headers: send an API key in x-api-key.', {
    'WWW-Authenticate': 'x-api-key',
  });

/** The workspace a key acts in: `x-tenant-id` when sent, else its first writable one. */
function pickWorkspace(
  workspaces: z.infer<typeof workspacesSchema>,
  tenant: string | undefined,
): { id: string; read_only: boolean } {
  if (tenant) {
    const named = workspaces.find((workspace) => workspace.id === tenant);
    if (!named) throw new AuthRefusal(403, `This API key cannot access workspace ${tenant}.`);
    return named;
  }
  const chosen = workspaces.find((workspace) => !workspace.read_only) ?? workspaces[0];
  if (!chosen) throw new AuthRefusal(403, 'This API key belongs to no workspace.');
  return chosen;
}

/**
 * `LANGGRAPH_AUTH_TYPE=langsmith`: each request's `x-api-key` must be a key of the usage service
 * (or of the LangSmith at LANGSMITH_AUTH_ENDPOINT). A key acts in one workspace, and everything
 * it creates carries that workspace in its metadata; other workspaces' records are invisible
 * to it. A key that can only read its workspace cannot change anything (403).
 */
export function createLangSmithPolicy(options: LangSmithPolicyOptions): AuthPolicy {
  const ttlMs = options.ttlMs ?? CACHE_TTL_MS;
  const fetchImpl = options.fetch ?? fetch;
  const cache = new Map<string, { expires: number; answer: Promise<AuthUser> }>();

  async function check(key: string, keyHash: string, tenant: string | undefined) {
    const base = options.apiBase();
    if (!base) throw new AuthRefusal(503, 'API keys cannot be checked yet; retry shortly.');
    let response: Response;
    try {
      response = await fetchImpl(`${base}/workspaces`, {
        headers: { 'x-api-key': key },
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new AuthRefusal(503, 'API keys cannot be checked right now; retry shortly.');
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new AuthRefusal(401, 'Invalid API key.', { 'WWW-Authenticate': 'x-api-key' });
    }
    const parsed = response.ok
      ? workspacesSchema.safeParse(await response.json().catch(() => undefined))
      : undefined;
    if (!parsed?.success) {
      throw new AuthRefusal(503, 'API keys cannot be checked right now; retry shortly.');
    }
    const workspace = pickWorkspace(parsed.data, tenant);
    const user: AuthUser = {
      identity: `api-key:${keyHash.slice(0, 16)}`,
      display_name: `API key of workspace ${workspace.id}`,
      is_authenticated: true,
      permissions: workspace.read_only ? [] : [RUNS_CREATE_PERMISSION],
      workspace_id: workspace.id,
    };
    return user;
  }

  function cached(key: string, tenant: string | undefined): Promise<AuthUser> {
    const keyHash = createHash('sha256').update(key).digest('hex');
    const entry = `${keyHash}\n${tenant ?? ''}`;
    const now = Date.now();
    const hit = cache.get(entry);
    if (hit && hit.expires > now) return hit.answer;
    if (cache.size >= CACHE_MAX_ENTRIES) {
      for (const [name, value] of cache) if (value.expires <= now) cache.delete(name);
      if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
    }
    const answer = check(key, keyHash, tenant);
    cache.set(entry, { expires: now + ttlMs, answer });
    // A key the service could not check is asked again on the next request.
    answer.catch((error: unknown) => {
      if (!(error instanceof AuthRefusal) || error.status === 503) cache.delete(entry);
    });
    return answer;
  }

  return {
    mode: 'langsmith',
    authenticate: async (request) => {
      const key = request.headers.get('x-api-key')?.trim();
      if (!key || key.length > MAX_KEY_LENGTH) throw missingKey();
      const tenant = request.headers.get('x-tenant-id')?.trim() || undefined;
      return cached(key, tenant);
    },
    authorize: (user, resource, action): Promise<AuthDecision> => {
      const workspace = user.workspace_id;
      if (!workspace) return Promise.resolve(OPEN_DECISION);
      if (!READ_ACTIONS.has(action) && !user.permissions.includes(RUNS_CREATE_PERMISSION)) {
        return Promise.reject(
          new AuthRefusal(403, `This API key can only read workspace ${workspace}.`),
        );
      }
      // Store items have no metadata: each workspace's are kept under a namespace label of its own.
      if (resource === 'store') {
        return Promise.resolve({ ...OPEN_DECISION, namespaceScope: [workspaceLabel(workspace)] });
      }
      const owned = { [WORKSPACE_METADATA_KEY]: workspace };
      // The deployment's system assistants (one per graph) are every workspace's to read and run.
      const filters =
        resource === 'assistants' && READ_ACTIONS.has(action)
          ? { $or: [owned, SYSTEM_ASSISTANTS] }
          : owned;
      return Promise.resolve({ filters, stamp: owned });
    },
  };
}
