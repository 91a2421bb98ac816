import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A new session id: 256 random bits, the cookie's whole value. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** How a session id is stored and looked up: a database leak gives no cookie that works. */
export function hashSessionId(sessionId: string): string {
  return createHash('sha256').update(`console-session:${sessionId}`).digest('hex');
}

/** The AES key an apikey session's key is sealed under: derived from the id, never stored. */
function sealingKey(sessionId: string): Buffer {
  return createHash('sha256').update(`console-session-key:${sessionId}`).digest();
}

/**
 * Seals an API key under its session id (AES-256-GCM): the stored row opens only with the
 * cookie, so the database alone holds no usable key.
 */
export function sealKey(sessionId: string, apiKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(sessionId), iv);
  const body = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

/** The key `sealKey` sealed, or undefined when the id does not open it. */
export function openKey(sessionId: string, sealed: string): string | undefined {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(sessionId), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
