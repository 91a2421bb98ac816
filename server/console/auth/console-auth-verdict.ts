import type { Config } from '@server/config';

/** Hosts that only this machine reaches. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

export type ConsoleAuthMode = 'none' | 'apikey' | 'oidc';

export type ConsoleAuthVerdict =
  { start: true; mode: ConsoleAuthMode; warning?: string } | { start: false; message: string };

/**
 * How the console signs people in, and whether the server may start so: without a sign-in the
 * console acts with the server's keys (an org admin's by default) for anyone who opens it, which
 * is right on loopback only. Off loopback, unset refuses to start; an explicit `none` starts
 * with a warning.
 */
export function consoleAuthVerdict(config: Config): ConsoleAuthVerdict {
  if (config.CONSOLE_AUTH !== undefined && config.CONSOLE_AUTH !== 'none') {
    return { start: true, mode: config.CONSOLE_AUTH };
  }
  const exposure = isLoopback(config.HOST) ? undefined : `on HOST=${config.HOST}`;
  if (!exposure) return { start: true, mode: 'none' };
  if (config.CONSOLE_AUTH === 'none') {
    return {
      start: true,
      mode: 'none',
      warning:
        `Warning: the console signs no one in (CONSOLE_AUTH=none) ${exposure}: anyone who reaches ` +
        "this port acts with the server's usage key.",
    };
  }
  return {
    start: false,
    message:
      `Refusing to start: the console (/_console) would act with the server's usage key for ` +
      `anyone, without a sign-in, ${exposure}.\n` +
      '  Set CONSOLE_AUTH=apikey to have each person sign in with their own usage API key,\n' +
      "  or CONSOLE_AUTH=oidc to sign people in with the organization's identity provider,\n" +
      '  or CONSOLE_AUTH=none to serve it open on purpose,\n' +
      '  or HOST=127.0.0.1 to serve this machine only.',
  };
}
