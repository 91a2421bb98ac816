import { createClient, type ClickHouseClient } from '@clickhouse/client';

export interface ClickHouseSettings {
  url: string;
  username?: string;
  password?: string;
  /** Created when missing. */
  database: string;
}

/**
 * Inserts give up after this long. Kept well under the claim lease (`billed-runs.ts`): a claim is
 * only taken over, after looking for its traces, once no insert of its owner can still land.
 */
export const INSERT_TIMEOUT_MS = 10_000;

/** A client of `settings.database`, which is created first when missing. */
export async function openClickHouse(settings: ClickHouseSettings): Promise<ClickHouseClient> {
  const common = {
    url: settings.url,
    username: settings.username ?? 'default',
    password: settings.password ?? '',
    request_timeout: 30_000,
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

/** A UTC day (`YYYY-MM-DD`) of an epoch-ms instant, as ClickHouse's Date literal. */
export const dayLiteral = (ms: number) => `toDate('${new Date(ms).toISOString().slice(0, 10)}')`;

/** The rows of a TabSeparated answer, split into cells (our columns hold no tabs or escapes). */
export async function tsvRows(client: ClickHouseClient, query: string): Promise<string[][]> {
  const result = await client.query({ query, format: 'TabSeparated' });
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
