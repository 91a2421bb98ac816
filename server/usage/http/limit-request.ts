import type { Context } from 'hono';
import type { z } from 'zod';
import { jsonError } from '@server/http/json-error';
import { USAGE_LIMITS_MANAGE_PERMISSION } from '../seed/demo-keys';
import { hashApiKey } from '../store/api-key-hash';
import type { Principal, UsageStore } from '../store/usage-store';
import { authenticate } from './authenticate';
import { validationProblems } from '@server/http/validation-issues';

type Step<T> = T | { response: Response };

/**
 * 401 unknown key -> 403 without organization:read (reading) or usage-limits:manage (writing).
 * Writing needs both: a key that changes limits must also be able to read them.
 */
export async function authorizeLimits(
  c: Context,
  backend: UsageStore,
  access: 'read' | 'write',
): Promise<Step<{ principal: Principal }>> {
  const auth = await authenticate(c, backend);
  if ('response' in auth) return auth;
  const needed =
    access === 'read'
      ? ['organization:read']
      : ['organization:read', USAGE_LIMITS_MANAGE_PERMISSION];
  const missing = needed.find((permission) => !auth.principal.permissions.includes(permission));
  if (missing) {
    return { response: jsonError(c, 403, `This API key lacks the ${missing} permission.`) };
  }
  return auth;
}

/**
 * The workspace a request is about: `X-Tenant-Id` (as LangSmith), else the key's own
 * workspace, else its only one. 422 when none can be told or the header is no UUID; 403 when
 * the key cannot read it, or (writing) reads it read-only.
 */
export async function limitWorkspace(
  c: Context,
  backend: UsageStore,
  principal: Principal,
  access: 'read' | 'write',
): Promise<Step<{ workspaceId: string }>> {
  const header = c.req.header('x-tenant-id')?.trim();
  let workspaceId = header;
  if (!workspaceId) {
    const apiKey = c.req.header('x-api-key')?.trim() ?? '';
    const owner = await backend.keys.writerForKey(hashApiKey(apiKey));
    const only = principal.workspaces.length === 1 ? principal.workspaces[0]?.id : undefined;
    workspaceId = owner.homeWorkspaceId ?? only;
  }
  if (
    !workspaceId ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(workspaceId)
  ) {
    return {
      response: jsonError(c, 422, [
        {
          loc: ['header', 'x-tenant-id'],
          msg: workspaceId ? 'Input should be a valid UUID' : 'Field required',
          type: workspaceId ? 'uuid_parsing' : 'missing',
          input: workspaceId ?? null,
        },
      ]),
    };
  }
  const id = workspaceId.toLowerCase();
  const workspace = principal.workspaces.find((candidate) => candidate.id === id);
  if (!workspace)
    return { response: jsonError(c, 403, `This API key cannot read workspace ${id}.`) };
  if (access === 'write' && workspace.read_only) {
    return {
      response: jsonError(c, 403, `This API key cannot change the limits of workspace ${id}.`),
    };
  }
  return { workspaceId: id };
}

/** The JSON body validated by `schema`, or FastAPI's 422 with every problem. */
export async function parseBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<Step<{ body: z.output<S> }>> {
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch {
    return {
      response: jsonError(c, 422, [
        { loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' },
      ]),
    };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { body: parsed.data };
  return {
    response: jsonError(
      c,
      422,
      validationProblems(['body'], parsed.error, (issue, loc) => {
        const missing = issue.code === 'invalid_type' && valueAt(json, loc.slice(1)) === undefined;
        return {
          msg: missing ? 'Field required' : issue.message,
          type: missing ? 'missing' : issue.code,
        };
      }),
    ),
  };
}

function valueAt(json: unknown, path: (string | number)[]): unknown {
  let value = json;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}
