import { readFileSync } from 'node:fs';
import type { Config } from '@server/config';

/**
 * Whether custom auth is configured: LANGGRAPH_AUTH, or an `auth.path` in the langgraph.json (a
 * file that cannot be read here fails the graphs' load later, with its own message).
 */
function hasCustomAuth(config: Config): boolean {
  if (config.LANGGRAPH_AUTH !== undefined) return true;
  if (!config.LANGGRAPH_CONFIG) return false;
  try {
    const json: unknown = JSON.parse(readFileSync(config.LANGGRAPH_CONFIG, 'utf8'));
    const auth: unknown = typeof json === 'object' && json !== null && Reflect.get(json, 'auth');
    return (
      typeof auth === 'object' && auth !== null && typeof Reflect.get(auth, 'path') === 'string'
    );
  } catch {
    return false;
  }
}

/** Hosts that only this machine reaches. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

export type ProtectedModeVerdict =
  { start: true; warning?: string } | { start: false; message: string };

/**
 * Whether the server may start with its deployment API as configured: one that other machines
 * can reach (HOST not loopback, or replicas in cluster mode) must not be open by default. An
 * explicit `LANGGRAPH_AUTH_TYPE=noop` opens it on purpose, with a warning.
 */
export function protectedModeVerdict(config: Config): ProtectedModeVerdict {
  const exposure = config.REDIS_URI
    ? 'in cluster mode (REDIS_URI)'
    : isLoopback(config.HOST)
      ? undefined
      : `on HOST=${config.HOST}`;
  if (!exposure || config.LANGGRAPH_AUTH_TYPE === 'langsmith' || hasCustomAuth(config)) {
    return { start: true };
  }
  if (config.LANGGRAPH_AUTH_TYPE === 'noop') {
    return {
      start: true,
      warning:
        `Warning: the deployment API is open (LANGGRAPH_AUTH_TYPE=noop) ${exposure}: anyone who ` +
        'reaches this port can read every thread and start runs.',
    };
  }
  return {
    start: false,
    message:
      `Refusing to start: the deployment API (/deployment) would answer anyone, without a ` +
      `credential, ${exposure}.\n` +
      '  Set LANGGRAPH_AUTH_TYPE=langsmith to require an API key (x-api-key) of the usage service,\n' +
      '  or LANGGRAPH_AUTH (or langgraph.json "auth") to name your own Auth object,\n' +
      '  or LANGGRAPH_AUTH_TYPE=noop to serve it open on purpose,\n' +
      '  or HOST=127.0.0.1 to serve this machine only.',
  };
}
