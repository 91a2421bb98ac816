import type { Context } from 'hono';
import { jsonError } from '@server/http/json-error';
import { ORGANIZATION_MANAGE_PERMISSION } from '../seed/demo-keys';
import type { Principal, UsageStore } from '../store/usage-store';
import { authenticate } from './authenticate';

/** 401 unknown key -> 403 without organization:manage (API keys, the audit log). */
export async function authorizeAdmin(
  c: Context,
  backend: UsageStore,
): Promise<{ principal: Principal } | { response: Response }> {
  const auth = await authenticate(c, backend);
  if ('response' in auth) return auth;
  if (!auth.principal.permissions.includes(ORGANIZATION_MANAGE_PERMISSION)) {
    return {
      response: jsonError(
        c,
        403,
        `This API key lacks the ${ORGANIZATION_MANAGE_PERMISSION} permission.`,
      ),
    };
  }
  return auth;
}
