import type { Config } from '@server/config';
import { redactedAddress } from './backend-address';
import { probeClickHouse } from './probe-clickhouse';
import { probePostgres } from './probe-postgres';
import { probeRedis } from './probe-redis';

/** Each probe gets this long: with the process's own start-up, a failure shows within 10 s. */
export const PROBE_TIMEOUT_MS = 5_000;

type BackendVariable = 'DATABASE_URI' | 'REDIS_URI' | 'CLICKHOUSE_URL';

interface BackendProbe {
  variable: BackendVariable;
  /** The configured address, safe to print. */
  address: string;
  reach: (timeoutMs: number) => Promise<void>;
}

export interface UnreachableBackend {
  variable: BackendVariable;
  address: string;
  reason: string;
}

/** One or more configured backends did not answer; the message has one line per backend. */
export class BackendUnreachableError extends Error {
  override name = 'BackendUnreachableError';
  constructor(readonly unreachable: UnreachableBackend[]) {
    super(unreachable.map(describeUnreachable).join('\n'));
  }
}

/** The one line start-up prints for a backend it cannot reach. */
export function describeUnreachable({ variable, address, reason }: UnreachableBackend): string {
  return `Cannot reach ${variable} (${address}): ${reason}`;
}

/** The external servers the configuration names, each with a way to reach it. */
function configuredBackends(config: Config): BackendProbe[] {
  const probes: BackendProbe[] = [];
  const { DATABASE_URI, REDIS_URI, CLICKHOUSE_URL } = config;
  if (DATABASE_URI) {
    probes.push({
      variable: 'DATABASE_URI',
      address: redactedAddress(DATABASE_URI),
      reach: (timeoutMs) => probePostgres(DATABASE_URI, timeoutMs),
    });
  }
  if (REDIS_URI) {
    probes.push({
      variable: 'REDIS_URI',
      address: redactedAddress(REDIS_URI),
      reach: (timeoutMs) => probeRedis(REDIS_URI, timeoutMs),
    });
  }
  if (CLICKHOUSE_URL) {
    const settings = {
      url: CLICKHOUSE_URL,
      username: config.CLICKHOUSE_USER,
      password: config.CLICKHOUSE_PASSWORD,
    };
    probes.push({
      variable: 'CLICKHOUSE_URL',
      address: redactedAddress(CLICKHOUSE_URL),
      reach: (timeoutMs) => probeClickHouse(settings, timeoutMs),
    });
  }
  return probes;
}

/**
 * Reaches every backend the configuration names, all at once, before anything slow (migrations,
 * the demo dataset) starts; throws `BackendUnreachableError` naming each one that did not answer.
 */
export async function checkBackends(
  config: Config,
  timeoutMs: number = PROBE_TIMEOUT_MS,
): Promise<void> {
  const results = await Promise.all(
    configuredBackends(config).map(async ({ variable, address, reach }) => {
      try {
        await withTimeout(reach(timeoutMs), timeoutMs);
        return undefined;
      } catch (error) {
        return { variable, address, reason: reasonOf(error) } satisfies UnreachableBackend;
      }
    }),
  );
  const unreachable = results.filter((result) => result !== undefined);
  if (unreachable.length > 0) throw new BackendUnreachableError(unreachable);
}

/** Drivers retry or wait on their own clocks; this one bounds the whole probe. */
async function withTimeout(work: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A driver's error as one short line. Node reports a host with several addresses (localhost:
 * ::1 and 127.0.0.1) as an AggregateError with an empty message; its parts say what happened.
 */
export function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') {
    const parts = error.errors.map(reasonOf);
    return [...new Set(parts)].join('; ') || 'connection failed';
  }
  if (error instanceof Error) {
    const line = error.message.split('\n')[0]?.trim() ?? '';
    if (line !== '') return line;
    const { code } = error as NodeJS.ErrnoException;
    return code ?? error.name;
  }
  return String(error);
}
