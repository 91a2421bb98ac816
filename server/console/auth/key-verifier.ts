import { z } from 'zod';
import type { ConsoleRole } from '@contracts/console-roles';
import { hashApiKey } from '@server/usage/store/api-key-hash';
import type { KeyStore } from '@server/usage/store/usage-store';
import { roleOfPermissions, roleOfWorkspaces } from './key-role';

/** What signing in with a key found: a role and a name to show, or why not. */
export type KeyVerdict =
  | { ok: true; role: ConsoleRole; name: string }
  | { ok: false; reason: 'unknown' | 'no-usage-access' | 'unreachable' };

/** Checks a key against the usage API the console fronts. */
export type KeyVerifier = (apiKey: string) => Promise<KeyVerdict>;

/** Longer keys cannot be one (as the usage API's own check): hashing stays bounded. */
const MAX_KEY_LENGTH = 512;

/** A name for the shell that tells keys apart without showing one: its last four characters. */
export function keyDisplayName(apiKey: string): string {
  return `API key …${apiKey.slice(-4)}`;
}

/** The embedded usage service's own keys: the permissions it would check on each request. */
export function embeddedKeyVerifier(keys: KeyStore): KeyVerifier {
  return async (apiKey) => {
    if (apiKey.length > MAX_KEY_LENGTH) return { ok: false, reason: 'unknown' };
    const principal = await keys.principalForKey(hashApiKey(apiKey));
    if (!principal) return { ok: false, reason: 'unknown' };
    const role = roleOfPermissions(principal.permissions);
    if (!role) return { ok: false, reason: 'no-usage-access' };
    return { ok: true, role, name: keyDisplayName(apiKey) };
  };
}

const workspacesSchema = z.array(z.object({ permissions: z.array(z.string()).default([]) }));

/**
 * A remote LangSmith's keys: the key is good when `GET /workspaces` answers it, and its role
 * comes from the workspaces it manages. Never follows a redirect with the key.
 */
export function remoteKeyVerifier(baseUrl: string, fetchImpl: typeof fetch = fetch): KeyVerifier {
  const url = `${baseUrl.replace(/\/+$/, '')}/workspaces`;
  return async (apiKey) => {
    if (apiKey.length > MAX_KEY_LENGTH) return { ok: false, reason: 'unknown' };
    let response: Response;
    try {
      response = await fetchImpl(url, {
        headers: { 'x-api-key': apiKey, accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      return { ok: false, reason: 'unreachable' };
    }
    if (response.status === 401) return { ok: false, reason: 'unknown' };
    if (response.status === 403) return { ok: false, reason: 'no-usage-access' };
    const parsed = response.ok
      ? workspacesSchema.safeParse(await response.json().catch(() => undefined))
      : undefined;
    if (!parsed?.success) {
      await response.body?.cancel();
      return { ok: false, reason: 'unreachable' };
    }
    return { ok: true, role: roleOfWorkspaces(parsed.data), name: keyDisplayName(apiKey) };
  };
}
