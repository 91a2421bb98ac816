import type { Config } from '@server/config';

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
  if (!exposure || config.LANGGRAPH_AUTH_TYPE === 'langsmith') return { start: true };
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
      '  or LANGGRAPH_AUTH_TYPE=noop to serve it open on purpose,\n' +
      '  or HOST=127.0.0.1 to serve this machine only.',
  };
}
