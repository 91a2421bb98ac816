import type { Config } from '@server/config';
import type { ConsoleSessionStore } from '@server/usage/store/console-session-store';
import type { KeyStore } from '@server/usage/store/usage-store';
import { apiKeyConsoleAuth, openConsoleAuth, type ConsoleAuth } from './console-auth';
import { embeddedKeyVerifier, remoteKeyVerifier } from './key-verifier';

/** The usage service's parts sign-in needs: its sessions, and its keys when it is the API. */
export interface ConsoleAuthStores {
  sessions: ConsoleSessionStore;
  keys: KeyStore;
}

/**
 * The console's sign-in as configured: keys are checked against the usage API the console
 * fronts (LANGSMITH_ENDPOINT's, or the embedded service's own keys), sessions kept in the usage
 * service's database.
 */
export function consoleAuthFromConfig(config: Config, stores: ConsoleAuthStores): ConsoleAuth {
  if (config.CONSOLE_AUTH !== 'apikey') return openConsoleAuth();
  return apiKeyConsoleAuth({
    sessions: stores.sessions,
    verifyKey: config.LANGSMITH_ENDPOINT
      ? remoteKeyVerifier(`${config.LANGSMITH_ENDPOINT.replace(/\/+$/, '')}/api/v1`)
      : embeddedKeyVerifier(stores.keys),
    lifetime: {
      idleMs: config.CONSOLE_SESSION_IDLE_SECONDS * 1000,
      maxMs: config.CONSOLE_SESSION_MAX_SECONDS * 1000,
    },
    transport: {
      publicHttps: config.CONSOLE_PUBLIC_URL?.startsWith('https:') ?? false,
      trustProxy: config.CONSOLE_TRUST_PROXY,
    },
    signInPerMinute: config.CONSOLE_SIGN_IN_PER_MINUTE,
  });
}
