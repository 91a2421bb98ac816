import type { Context } from 'hono';
import { jsonError } from '@server/http/json-error';
import { hashApiKey } from '../store/api-key-hash';
import type { Principal, UsageStore } from '../store/usage-store';

/** Longer headers cannot be one of our keys; refusing them early keeps hashing bounded. */
const MAX_KEY_LENGTH = 512;

/**
 * Resolves the `x-api-key` header to a principal, or returns the 401 response to send.
 * The key itself is never logged or echoed.
 */
export async function authenticate(
  c: Context,
  backend: UsageStore,
): Promise<{ principal: Principal } | { response: Response }> {
  const apiKey = c.req.header('x-api-key')?.trim();
  if (!apiKey) {
    return { response: jsonError(c, 401, 'Missing x-api-key header.') };
  }
  const principal =
    apiKey.length <= MAX_KEY_LENGTH
      ? await backend.keys.principalForKey(hashApiKey(apiKey))
      : undefined;
  if (!principal) return { response: jsonError(c, 401, 'Invalid API key.') };
  return { principal };
}
