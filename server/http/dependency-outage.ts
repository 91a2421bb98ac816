import type { Context } from 'hono';
import { jsonError } from './json-error';

/** What a client waits before retrying a request refused during an outage. */
export const RETRY_AFTER_SECONDS = 5;

/** Node and undici codes of a connection that could not be made or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** SQLSTATEs of a Postgres that is shutting down, starting up or dropped the connection. */
const POSTGRES_UNAVAILABLE = /^(57P0[1-3]|08\d{3})$/;

/** Messages the drivers give for a connection lost or never made (they carry no code). */
const LOST_CONNECTION: [RegExp, Dependency | undefined][] = [
  [/Connection terminated|timeout exceeded when trying to connect/i, 'postgres'],
  [/terminating connection due to administrator command|the database system is/i, 'postgres'],
  [/Connection is closed|MaxRetriesPerRequest|Reached the max retries/i, 'redis'],
  [/^Timeout error\.?$|socket hang up/i, undefined],
];

export type Dependency = 'postgres' | 'clickhouse' | 'redis';

export interface Outage {
  /** The dependency when the error names it; else the address it could not reach. */
  dependency: Dependency | string;
  reason: string;
}

/**
 * An error met calling `dependency`, so that an outage names it whatever the driver threw: a
 * refused connect carries only an address, and an aborted request nothing at all. With `code`
 * `ETIMEDOUT` it is an outage of its own: the dependency did not answer within its deadline.
 */
export class DependencyError extends Error {
  readonly dependency: Dependency;
  readonly code: string | undefined;

  constructor(
    dependency: Dependency,
    message: string,
    options: { cause?: unknown; code?: string },
  ) {
    super(message, { cause: options.cause });
    this.name = 'DependencyError';
    this.dependency = dependency;
    this.code = options.code;
  }
}

interface ErrorFields {
  code?: unknown;
  message?: unknown;
  stack?: unknown;
  address?: unknown;
  port?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** Which driver threw, read from where the error was made. */
function driverOf(error: ErrorFields): Dependency | undefined {
  if (error instanceof DependencyError) return error.dependency;
  const stack = typeof error.stack === 'string' ? error.stack : '';
  if (/node_modules[\\/](pg|pg-pool|pg-protocol)[\\/]/.test(stack)) return 'postgres';
  if (/node_modules[\\/]@clickhouse[\\/]/.test(stack)) return 'clickhouse';
  if (/node_modules[\\/]ioredis[\\/]/.test(stack)) return 'redis';
  return undefined;
}

function classify(error: ErrorFields, depth: number): Outage | undefined {
  const message = typeof error.message === 'string' ? error.message : '';
  const code = typeof error.code === 'string' ? error.code : '';
  const address =
    typeof error.address === 'string'
      ? `${error.address}${typeof error.port === 'number' ? `:${error.port}` : ''}`
      : undefined;
  if (error instanceof DependencyError && !CONNECTION_CODES.has(code)) {
    // The call's error is the dependency's outage when what it wraps is one.
    const inner = error.cause;
    const found =
      typeof inner === 'object' && inner !== null && depth <= 3
        ? classify(inner, depth + 1)
        : undefined;
    return found && { ...found, dependency: error.dependency };
  }
  if (POSTGRES_UNAVAILABLE.test(code)) return { dependency: 'postgres', reason: message };
  if (CONNECTION_CODES.has(code)) {
    return { dependency: driverOf(error) ?? address ?? 'a database', reason: message || code };
  }
  for (const [pattern, dependency] of LOST_CONNECTION) {
    if (pattern.test(message)) {
      return { dependency: dependency ?? driverOf(error) ?? 'a database', reason: message };
    }
  }
  if (depth > 3) return undefined;
  // Node reports a refused connect to every address of a host as one AggregateError.
  const nested = [error.cause, ...(Array.isArray(error.errors) ? error.errors : [])];
  for (const inner of nested) {
    if (typeof inner !== 'object' || inner === null) continue;
    const found = classify(inner, depth + 1);
    if (found) return { ...found, dependency: driverOf(error) ?? found.dependency };
  }
  return undefined;
}

/**
 * The outage behind an error, when it is one (a database refused, dropped or timed out a
 * connection); undefined for every other error, which stays a 500.
 */
export function outageOf(error: unknown): Outage | undefined {
  return typeof error === 'object' && error !== null ? classify(error, 0) : undefined;
}

/**
 * An error that carries its own answer: Hono's `HTTPException`, from any copy of the package (a
 * langgraph.json custom route imports its own `hono`), as Hono's default handler recognises it.
 */
function ownResponseOf(error: unknown): Response | undefined {
  if (typeof error !== 'object' || error === null || !('getResponse' in error)) return undefined;
  const { getResponse } = error;
  if (typeof getResponse !== 'function') return undefined;
  const response: unknown = getResponse.call(error);
  return response instanceof Response ? response : undefined;
}

/**
 * The one answer to an error a route did not handle: an error that carries its own HTTP answer
 * (a route's `HTTPException`, e.g. a custom route's 400) gets it; an outage is a 503 with
 * `Retry-After` that names the dependency (a client waits and retries); anything else is logged
 * and a 500.
 */
export function answerUnhandledError(c: Context, error: unknown, service: string) {
  const own = ownResponseOf(error);
  if (own) return c.newResponse(own.body, own);
  const outage = outageOf(error);
  if (outage) {
    console.warn(`[${service}] ${c.req.method} ${c.req.path}: ${outage.dependency} unavailable`);
    c.header('Retry-After', String(RETRY_AFTER_SECONDS));
    return jsonError(
      c,
      503,
      `The ${outage.dependency} this server depends on is unavailable (${outage.reason}); retry in ${RETRY_AFTER_SECONDS} s.`,
    );
  }
  // Logged without the request's headers: they carry API keys.
  console.error(`[${service}] ${c.req.method} ${c.req.path} failed:`, error);
  return jsonError(c, 500, 'Internal Server Error');
}
