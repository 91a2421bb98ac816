import { createHash } from 'node:crypto';

/** sha256 hex of an API key: the only form in which keys are stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
