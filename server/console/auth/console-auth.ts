import type { Context } from 'hono';
import { Hono } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { ConsoleRole } from '@contracts/console-roles';
import { apiKeySignInSchema, type ConsoleSession } from '@contracts/console-session';
import { jsonError } from '@server/http/json-error';
import type {
  ConsoleSessionStore,
  StoredConsoleSession,
} from '@server/usage/store/console-session-store';
import type { KeyVerdict, KeyVerifier } from './key-verifier';
import {
  clearSessionCookie,
  isHttpsRequest,
  readSessionCookie,
  writeSessionCookie,
  type TransportPolicy,
} from './session-cookie';
import {
  cookieMaxAgeSeconds,
  isSessionLive,
  needsTouch,
  type SessionLifetime,
} from './session-expiry';
import { hashSessionId, newSessionId, openKey, sealKey } from './session-token';
import { createSignInRateLimit } from './sign-in-rate-limit';

/**
 * Who a console request acts for. `role: null` is a console that signs no one in (it acts with
 * the server's keys); `apiKey` is an apikey user's own key; `actor` an oidc user's verified
 * e-mail (the request then acts with the server's key on their behalf).
 */
export interface ConsoleIdentity {
  role: ConsoleRole | null;
  apiKey?: string;
  actor?: string;
}

export interface ConsoleAuth {
  mode: ConsoleSession['mode'];
  /** `/session`, `/sign-in`, `/sign-out`, mounted at `/_console/auth`. */
  routes: Hono;
  /** The identity of a console request, or the 401 to answer it with. */
  identify(c: Context): Promise<{ identity: ConsoleIdentity } | { response: Response }>;
}

/** Who is signed in is personal: no cache on the way may keep or share an answer. */
function authRoutes(): Hono {
  const routes = new Hono();
  routes.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  return routes;
}

/** The console of CONSOLE_AUTH=none: every request acts with the server's keys. */
export function openConsoleAuth(): ConsoleAuth {
  const routes = authRoutes();
  routes.get('/session', (c) => c.json({ mode: 'none', user: null } satisfies ConsoleSession));
  routes.on(['POST'], ['/sign-in', '/sign-out'], (c) =>
    jsonError(c, 404, 'This console signs no one in (CONSOLE_AUTH=none).'),
  );
  return { mode: 'none', routes, identify: async () => ({ identity: { role: null } }) };
}

export interface ApiKeyAuthOptions {
  sessions: ConsoleSessionStore;
  verifyKey: KeyVerifier;
  lifetime: SessionLifetime;
  transport: TransportPolicy;
  signInPerMinute: number;
  now?: () => number;
}

const REFUSALS: Record<
  Exclude<KeyVerdict, { ok: true }>['reason'],
  { status: 401 | 403 | 502; detail: string }
> = {
  unknown: {
    status: 401,
    detail: 'That API key was not accepted. Check that it is complete and not revoked.',
  },
  'no-usage-access': {
    status: 403,
    detail: 'That API key cannot read usage: it lacks the organization:read permission.',
  },
  unreachable: {
    status: 502,
    detail: 'The usage API could not check the key just now. Try again in a moment.',
  },
};

/** The client address a sign-in attempt (or a proxied stream) is counted against. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    // The last hop is the one the trusted proxy appended: earlier ones are the client's word.
    const forwarded = c.req.header('x-forwarded-for')?.split(',').pop()?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Who a new session is for: an apikey user (with their key) or an oidc user. */
export type NewSignIn =
  | { mode: 'apikey'; name: string; role: ConsoleRole; apiKey: string }
  | { mode: 'oidc'; name: string; role: ConsoleRole };

/** What a sign-in method adds to the routes: it calls `start` once it knows who signed in. */
export type SignInRoutes = (
  routes: Hono,
  tools: { start: (c: Context, who: NewSignIn) => Promise<void>; now: () => number },
) => void;

export interface SessionAuthOptions {
  mode: 'apikey' | 'oidc';
  sessions: ConsoleSessionStore;
  lifetime: SessionLifetime;
  transport: TransportPolicy;
  signIn: SignInRoutes;
  now?: () => number;
}

/**
 * A console people sign in to: sessions in the usage database, the browser holding only a random
 * id in an HttpOnly cookie. `/session` and `/sign-out` are the same for every method; `signIn`
 * adds the method's own routes.
 */
export function sessionConsoleAuth(options: SessionAuthOptions): ConsoleAuth {
  const { mode, sessions, lifetime, transport } = options;
  const now = options.now ?? Date.now;

  type Found = { session: StoredConsoleSession; id: string } | { expired: boolean };
  const findSession = async (c: Context): Promise<Found> => {
    const secure = isHttpsRequest(c, transport);
    const id = readSessionCookie(c, secure);
    if (!id) return { expired: false };
    const idHash = hashSessionId(id);
    const session = await sessions.find(idHash);
    if (!session || session.mode !== mode) return { expired: true };
    const nowMs = now();
    if (!isSessionLive(session, nowMs, lifetime)) {
      await sessions.revoke(idHash);
      return { expired: true };
    }
    if (needsTouch(session, nowMs, lifetime)) {
      // A lost touch only shortens the idle clock by one step: never fail the request for it.
      await sessions.touch(idHash, nowMs).catch(() => undefined);
    }
    return { session, id };
  };

  const start = async (c: Context, who: NewSignIn) => {
    const id = newSessionId();
    const nowMs = now();
    await sessions.create({
      idHash: hashSessionId(id),
      mode: who.mode,
      name: who.name,
      role: who.role,
      sealedKey: who.mode === 'apikey' ? sealKey(id, who.apiKey) : null,
      createdAtMs: nowMs,
      lastSeenAtMs: nowMs,
    });
    // Sessions nobody signed out of would pile up: each sign-in clears the expired ones.
    await sessions.purge(nowMs - lifetime.idleMs, nowMs - lifetime.maxMs).catch(() => undefined);
    writeSessionCookie(
      c,
      isHttpsRequest(c, transport),
      id,
      cookieMaxAgeSeconds(nowMs, nowMs, lifetime),
    );
  };

  const routes = authRoutes();
  routes.get('/session', async (c) => {
    const found = await findSession(c);
    if (!('session' in found)) {
      if (found.expired) clearSessionCookie(c, isHttpsRequest(c, transport));
      return c.json({ mode, user: null } satisfies ConsoleSession);
    }
    const { name, role } = found.session;
    return c.json({ mode, user: { name, role } } satisfies ConsoleSession);
  });

  options.signIn(routes, { start, now });

  routes.post('/sign-out', async (c) => {
    const secure = isHttpsRequest(c, transport);
    const id = readSessionCookie(c, secure);
    if (id) await sessions.revoke(hashSessionId(id));
    clearSessionCookie(c, secure);
    return c.json({ mode, user: null } satisfies ConsoleSession);
  });

  return {
    mode,
    routes,
    async identify(c) {
      const found = await findSession(c);
      if (!('session' in found)) {
        const detail = found.expired
          ? 'Your console session has ended. Sign in again.'
          : 'Sign in to use the console.';
        return { response: jsonError(c, 401, detail) };
      }
      const { session, id } = found;
      if (session.mode === 'oidc') {
        return { identity: { role: session.role, actor: session.name } };
      }
      const apiKey = session.sealedKey === null ? undefined : openKey(id, session.sealedKey);
      if (apiKey === undefined) {
        return { response: jsonError(c, 401, 'Your console session has ended. Sign in again.') };
      }
      return { identity: { role: session.role, apiKey } };
    },
  };
}

/** 429 with Retry-After once `client` made too many sign-in attempts this minute. */
export function rateLimitSignIns(perMinute: number, trustProxy: boolean) {
  const rateLimit = createSignInRateLimit(perMinute);
  return (c: Context, nowMs: number): Response | undefined => {
    const verdict = rateLimit.attempt(clientAddress(c, trustProxy), nowMs);
    if (verdict.allowed) return undefined;
    c.header('Retry-After', String(verdict.retryAfterSeconds));
    return jsonError(
      c,
      429,
      `Too many sign-in attempts from this address. Try again in ${verdict.retryAfterSeconds} s.`,
    );
  };
}

/**
 * CONSOLE_AUTH=apikey: people sign in with their own usage API key. The key is checked against
 * the usage API, sealed under a random session id in the usage database, and the browser gets
 * only that id in an HttpOnly cookie; the console then acts with the key, never the server's.
 */
export function apiKeyConsoleAuth(options: ApiKeyAuthOptions): ConsoleAuth {
  const { verifyKey, transport } = options;
  const limited = rateLimitSignIns(options.signInPerMinute, transport.trustProxy);
  return sessionConsoleAuth({
    ...options,
    mode: 'apikey',
    signIn: (routes, { start, now }) => {
      routes.post('/sign-in', async (c) => {
        const refused = limited(c, now());
        if (refused) return refused;
        const body = apiKeySignInSchema.safeParse(await c.req.json().catch(() => undefined));
        const apiKey = body.success ? body.data.apiKey.trim() : '';
        if (apiKey === '') return jsonError(c, 422, 'Enter an API key to sign in.');
        const checked = await verifyKey(apiKey);
        if (!checked.ok) {
          const refusal = REFUSALS[checked.reason];
          return jsonError(c, refusal.status, refusal.detail);
        }
        await start(c, { mode: 'apikey', name: checked.name, role: checked.role, apiKey });
        return c.json({
          mode: 'apikey',
          user: { name: checked.name, role: checked.role },
        } satisfies ConsoleSession);
      });
    },
  });
}
