import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { DependencyError } from '@server/http/dependency-outage';

export interface ClickHouseSettings {
  url: string;
  username?: string;
  password?: string;
  /** Created when missing. */
  database: string;
}

/**
 * The ClickHouse calls of an ingestion request (the insert, the reads of the claim) give up
 * after this long, so that a client waiting on a hung ClickHouse is answered 503 within 5 s
 * (a healthy insert of a group takes milliseconds). Kept well under the claim lease
 * (`billed-runs.ts`): a claim is only taken over, after looking for its traces, once no insert
 * of its owner can still land.
 */
export const INSERT_TIMEOUT_MS = 3_000;

/**
 * Runs one ClickHouse call with a deadline. Any failure names ClickHouse (a refused connect's
 * error carries only an address), and a call past its deadline is an outage of its own, not the
 * client's bare "The user aborted a request.".
 */
export async function withinDeadline<T>(
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await call(signal);
  } catch (error) {
    if (signal.aborted) {
      throw new DependencyError('clickhouse', `no answer within ${timeoutMs} ms`, {
        cause: error,
        code: 'ETIMEDOUT',
      });
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new DependencyError('clickhouse', reason, { cause: error });
  }
}

/** A client of `settings.database`, which is created first when missing. */
export async function openClickHouse(settings: ClickHouseSettings): Promise<ClickHouseClient> {
  const common = {
    url: settings.url,
    username: settings.username ?? 'default',
    password: settings.password ?? '',
    request_timeout: 30_000,
    // Every failure reaches a caller, which reports it (an outage in one line, not a stack).
    log: { level: ClickHouseLogLevel.OFF },
  };
  const bootstrap = createClient(common);
  try {
    await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${settings.database}` });
  } finally {
    await bootstrap.close();
  }
  return createClient({ ...common, database: settings.database });
}

/** A UUID as a ClickHouse literal (ids are validated UUIDs; anything else is refused). */
export function uuidLiteral(id: string): string {
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(id)) {
    throw new RangeError(`not a UUID: ${id}`);
  }
  return `toUUID('${id.toLowerCase()}')`;
}

/** The UTC day (`YYYY-MM-DD`) of an epoch-ms instant. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A UTC day (`YYYY-MM-DD`) of an epoch-ms instant, as ClickHouse's Date literal. */
export const dayLiteral = (ms: number) => `toDate('${utcDay(ms)}')`;

/** Rows of the workspaces `ids` (validated UUIDs). */
export const workspacesSql = (ids: readonly string[]) =>
  `workspace_id IN (${ids.map(uuidLiteral).join(', ')})`;

/**
 * The rows of a TabSeparated answer, split into cells (our columns hold no tabs or escapes);
 * within `timeoutMs` when given (see `withinDeadline`), else the client's request timeout.
 */
export async function tsvRows(
  client: ClickHouseClient,
  query: string,
  timeoutMs?: number,
): Promise<string[][]> {
  if (timeoutMs !== undefined) {
    return withinDeadline(timeoutMs, (signal) => readRows(client, query, signal));
  }
  return readRows(client, query);
}

async function readRows(client: ClickHouseClient, query: string, signal?: AbortSignal) {
  const result = await client.query({ query, format: 'TabSeparated', abort_signal: signal });
  return tsvCells(await result.text());
}

/** A TabSeparated answer split into rows of cells (no tabs or escapes in our cells). */
export function tsvCells(text: string): string[][] {
  if (text === '') return [];
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => line.split('\t'));
}
