import type { Context } from 'hono';
import { roleMay, type ConsoleAction } from '@contracts/console-roles';
import { jsonError } from '@server/http/json-error';
import type { ConsoleAuth } from './console-auth';

/**
 * The credential a proxied console request carries: the server's (the console signs no one in:
 * a key the browser sends wins, as before sign-in existed), or exactly `apiKey` (a signed-in
 * user's request: nothing the browser sends replaces it), with `actor` naming the signed-in
 * person when the request acts with the server's key for them.
 */
export type ProxyCredential =
  { kind: 'server' } | { kind: 'key'; apiKey: string | undefined; actor?: string };

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

/** The keys one proxied area sends for signed-in users. */
export interface AreaKeys {
  /** What an apikey user's request sends: their own key, or the area's if it takes no user keys. */
  forUser: (userKey: string) => string | undefined;
  /** The server's key for the area: what an oidc user's request sends. */
  server: string | undefined;
  /** Whether the upstream learns who acts (`X-Console-Actor`): the usage API records it. */
  namesActor: boolean;
}

/** Identify -> check the role table -> pick the credential. */
export function createConsoleAuthorizer(auth: ConsoleAuth, keys: AreaKeys): ConsoleAuthorizer {
  return async (c, action) => {
    const found = await auth.identify(c);
    if ('response' in found) return found;
    const { role, apiKey, actor } = found.identity;
    if (role === null) return { credential: { kind: 'server' } };
    if (!roleMay(role, action)) {
      return {
        response: jsonError(c, 403, `Your console role (${role}) may not ${ACTION_WORDS[action]}.`),
      };
    }
    if (apiKey !== undefined) return { credential: { kind: 'key', apiKey: keys.forUser(apiKey) } };
    return {
      credential: {
        kind: 'key',
        apiKey: keys.server,
        ...(keys.namesActor && actor !== undefined ? { actor } : {}),
      },
    };
  };
}
