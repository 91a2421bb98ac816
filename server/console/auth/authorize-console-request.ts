import type { Context } from 'hono';
import { roleMay, type ConsoleAction } from '@contracts/console-roles';
import { jsonError } from '@server/http/json-error';
import type { ConsoleAuth } from './console-auth';

/**
 * The credential a proxied console request carries: the server's (the console signs no one in:
 * a key the browser sends wins, as before sign-in existed), or exactly `apiKey` (a signed-in
 * user's request: nothing the browser sends replaces it).
 */
export type ProxyCredential = { kind: 'server' } | { kind: 'key'; apiKey: string | undefined };

export type ConsoleAuthorizer = (
  c: Context,
  action: ConsoleAction,
) => Promise<{ credential: ProxyCredential } | { response: Response }>;

const ACTION_WORDS: Record<ConsoleAction, string> = {
  'usage:read': 'read usage',
  'usage:export': 'export usage',
  'playground:run': 'run the playground',
  'limits:change': 'change usage limits',
  'prices:change': 'change prices',
  'plans:change': 'change plans',
  'settings:change': 'change console settings',
};

/**
 * Identify -> check the role table -> pick the credential. `keyForUser` is what a signed-in
 * user's request sends upstream: their own key (the usage API, a deployment taking usage keys),
 * or the server's key of a service that takes no user keys.
 */
export function createConsoleAuthorizer(
  auth: ConsoleAuth,
  keyForUser: (userKey: string | undefined) => string | undefined,
): ConsoleAuthorizer {
  return async (c, action) => {
    const found = await auth.identify(c);
    if ('response' in found) return found;
    const { role, apiKey } = found.identity;
    if (role === null) return { credential: { kind: 'server' } };
    if (!roleMay(role, action)) {
      return {
        response: jsonError(c, 403, `Your console role (${role}) may not ${ACTION_WORDS[action]}.`),
      };
    }
    return { credential: { kind: 'key', apiKey: keyForUser(apiKey) } };
  };
}
