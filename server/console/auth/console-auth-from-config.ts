import type { Config } from '@server/config';
import type { ConsoleSessionStore } from '@server/usage/store/console-session-store';
import type { KeyStore } from '@server/usage/store/usage-store';
import { apiKeyConsoleAuth, openConsoleAuth, type ConsoleAuth } from './console-auth';
import { embeddedKeyVerifier, remoteKeyVerifier } from './key-verifier';
import { oidcConsoleAuth } from './oidc-console-auth';

/** The usage service's parts sign-in needs: its sessions, and its keys when it is the API. */
export interface ConsoleAuthStores {
  sessions: ConsoleSessionStore;
  keys: KeyStore;
}

/**
 * The console's sign-in as configured: apikey checks keys against the usage API the console
 * fronts (LANGSMITH_ENDPOINT's, or the embedded service's own keys), oidc asks the identity
 * provider; sessions are kept in the usage service's database either way.
 */
export function consoleAuthFromConfig(config: Config, stores: ConsoleAuthStores): ConsoleAuth {
  const common = {
    sessions: stores.sessions,
    lifetime: {
      idleMs: config.CONSOLE_SESSION_IDLE_SECONDS * 1000,
      maxMs: config.CONSOLE_SESSION_MAX_SECONDS * 1000,
    },
    transport: {
      publicHttps: config.CONSOLE_PUBLIC_URL?.startsWith('https:') ?? false,
      trustProxy: config.CONSOLE_TRUST_PROXY,
    },
    signInPerMinute: config.CONSOLE_SIGN_IN_PER_MINUTE,
  };
  if (config.CONSOLE_AUTH === 'apikey') {
    return apiKeyConsoleAuth({
      ...common,
      verifyKey: config.LANGSMITH_ENDPOINT
        ? remoteKeyVerifier(`${config.LANGSMITH_ENDPOINT.replace(/\/+$/, '')}/api/v1`)
        : embeddedKeyVerifier(stores.keys),
    });
  }
  if (config.CONSOLE_AUTH === 'oidc') {
    // The schema requires these with oidc; a missing one here is a programming error.
    const { OIDC_ISSUER_URL, OIDC_CLIENT_ID, CONSOLE_PUBLIC_URL } = config;
    if (!OIDC_ISSUER_URL || !OIDC_CLIENT_ID || !CONSOLE_PUBLIC_URL) {
      throw new Error(
        'CONSOLE_AUTH=oidc needs OIDC_ISSUER_URL, OIDC_CLIENT_ID, CONSOLE_PUBLIC_URL',
      );
    }
    return oidcConsoleAuth({
      ...common,
      oidc: {
        issuerUrl: OIDC_ISSUER_URL,
        clientId: OIDC_CLIENT_ID,
        clientSecret: config.OIDC_CLIENT_SECRET,
        redirectUri: `${CONSOLE_PUBLIC_URL.replace(/\/+$/, '')}/_console/auth/callback`,
        adminEmails: config.CONSOLE_ADMIN_EMAILS,
        viewerDomains: config.CONSOLE_VIEWER_DOMAINS,
      },
    });
  }
  return openConsoleAuth();
}
