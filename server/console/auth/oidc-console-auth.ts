import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import * as oidc from 'openid-client';
import { jsonError } from '@server/http/json-error';
import type { ConsoleSessionStore } from '@server/usage/store/console-session-store';
import { rateLimitSignIns, sessionConsoleAuth, type ConsoleAuth } from './console-auth';
import { roleOfEmail, type EmailRoles } from './email-role';
import { isHttpsRequest, type TransportPolicy } from './session-cookie';
import type { SessionLifetime } from './session-expiry';

export interface OidcSettings extends EmailRoles {
  issuerUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  /** `${CONSOLE_PUBLIC_URL}/_console/auth/callback`, registered with the identity provider. */
  redirectUri: string;
}

export interface OidcAuthOptions {
  sessions: ConsoleSessionStore;
  lifetime: SessionLifetime;
  transport: TransportPolicy;
  signInPerMinute: number;
  oidc: OidcSettings;
  now?: () => number;
}

/**
 * The login under way (PKCE verifier, state, nonce), kept by the browser between the redirect
 * and the callback. `Lax`: the callback is a top-level navigation back from the provider.
 */
const FLOW_COOKIE = 'console_oidc_flow';
const FLOW_PATH = '/_console/auth/callback';
const FLOW_SECONDS = 600;

interface Flow {
  verifier: string;
  state: string;
  nonce: string;
}

function readFlow(c: Context): Flow | undefined {
  const raw = getCookie(c, FLOW_COOKIE);
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { verifier, state, nonce } = parsed as Record<string, unknown>;
    if (typeof verifier !== 'string' || typeof state !== 'string' || typeof nonce !== 'string') {
      return undefined;
    }
    return { verifier, state, nonce };
  } catch {
    return undefined;
  }
}

/** Where the SPA says why a sign-in did not happen: a word in the address, never a detail. */
const landing = (outcome?: 'no-access' | 'failed') => (outcome ? `/?sign-in=${outcome}` : '/');

/**
 * CONSOLE_AUTH=oidc: the organization's identity provider signs people in (authorization code
 * with PKCE, through openid-client); their verified e-mail gives the role. The console then acts
 * with the server's key, names the person to the usage API (`X-Console-Actor`) and enforces the
 * role itself.
 */
export function oidcConsoleAuth(options: OidcAuthOptions): ConsoleAuth {
  const { transport, oidc: settings } = options;
  const limited = rateLimitSignIns(options.signInPerMinute, transport.trustProxy);
  const issuer = new URL(settings.issuerUrl);
  const clientAuth = settings.clientSecret
    ? oidc.ClientSecretPost(settings.clientSecret)
    : oidc.None();
  // Discovered once, on the first sign-in; a failure is tried again on the next one.
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= oidc
      .discovery(issuer, settings.clientId, undefined, clientAuth, {
        // The configuration accepts http only on loopback (a local provider, tests).
        execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };

  return sessionConsoleAuth({
    ...options,
    mode: 'oidc',
    signIn: (routes, { start, now }) => {
      routes.get('/login', async (c) => {
        const refused = limited(c, now());
        if (refused) return refused;
        let config: oidc.Configuration;
        try {
          config = await configuration();
        } catch {
          return jsonError(
            c,
            502,
            'The identity provider could not be reached. Try again shortly.',
          );
        }
        const flow: Flow = {
          verifier: oidc.randomPKCECodeVerifier(),
          state: oidc.randomState(),
          nonce: oidc.randomNonce(),
        };
        setCookie(c, FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
          httpOnly: true,
          sameSite: 'Lax',
          path: FLOW_PATH,
          secure: isHttpsRequest(c, transport),
          maxAge: FLOW_SECONDS,
        });
        const target = oidc.buildAuthorizationUrl(config, {
          redirect_uri: settings.redirectUri,
          scope: 'openid email',
          code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
          code_challenge_method: 'S256',
          state: flow.state,
          nonce: flow.nonce,
        });
        c.header('Cache-Control', 'no-store');
        return c.redirect(target.href, 302);
      });

      routes.get('/callback', async (c) => {
        const flow = readFlow(c);
        deleteCookie(c, FLOW_COOKIE, { path: FLOW_PATH, secure: isHttpsRequest(c, transport) });
        if (!flow) return c.redirect(landing('failed'), 302);
        let claims: Readonly<Record<string, unknown>> | undefined;
        try {
          // The address the provider sent the browser to, as registered (not as proxied here).
          const current = new URL(settings.redirectUri);
          current.search = new URL(c.req.url).search;
          const tokens = await oidc.authorizationCodeGrant(await configuration(), current, {
            pkceCodeVerifier: flow.verifier,
            expectedState: flow.state,
            expectedNonce: flow.nonce,
            idTokenExpected: true,
          });
          const idToken = tokens.claims();
          // Providers that keep scope claims out of the ID token answer them at userinfo.
          claims =
            idToken?.email === undefined && idToken
              ? await oidc.fetchUserInfo(await configuration(), tokens.access_token, idToken.sub)
              : idToken;
        } catch (error) {
          // The reason only: never the code, a token or the address that carried them.
          const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown';
          console.error(`OIDC sign-in failed: ${reason}`);
          return c.redirect(landing('failed'), 302);
        }
        const role = roleOfEmail(claims?.email, claims?.email_verified, settings);
        if (!role || typeof claims?.email !== 'string') {
          return c.redirect(landing('no-access'), 302);
        }
        await start(c, { mode: 'oidc', name: claims.email.trim().toLowerCase(), role });
        return c.redirect(landing(), 302);
      });
    },
  });
}
