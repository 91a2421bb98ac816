import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

/** Behind https the cookie takes the `__Host-` prefix: only this host, path `/`, Secure. */
const SECURE_NAME = '__Host-console_session';
const PLAIN_NAME = 'console_session';

/** Whether the browser reached the console over https, as far as this server may believe. */
export interface TransportPolicy {
  /** CONSOLE_PUBLIC_URL starts with https: the browser always does. */
  publicHttps: boolean;
  /** CONSOLE_TRUST_PROXY: the proxy's `X-Forwarded-Proto` is the truth. */
  trustProxy: boolean;
}

export function isHttpsRequest(c: Context, policy: TransportPolicy): boolean {
  if (policy.publicHttps) return true;
  if (new URL(c.req.url).protocol === 'https:') return true;
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return policy.trustProxy && forwarded === 'https';
}

/** The session id the browser sent, read under the name its transport allows. */
export function readSessionCookie(c: Context, secure: boolean): string | undefined {
  return getCookie(c, secure ? SECURE_NAME : PLAIN_NAME) || undefined;
}

/** An opaque, script-proof cookie holding only the session id. */
export function writeSessionCookie(c: Context, secure: boolean, id: string, maxAge: number) {
  setCookie(c, secure ? SECURE_NAME : PLAIN_NAME, id, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure,
    maxAge,
  });
}

export function clearSessionCookie(c: Context, secure: boolean) {
  deleteCookie(c, secure ? SECURE_NAME : PLAIN_NAME, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure,
  });
}
