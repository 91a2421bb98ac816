import { ClickHouseLogLevel, createClient } from '@clickhouse/client';

export interface ClickHouseProbeSettings {
  url: string;
  username?: string;
  password?: string;
}

/**
 * Runs `SELECT 1` with the configured user, without naming a database: the service creates its
 * database when missing, so a missing one is not an error yet.
 */
export async function probeClickHouse(
  settings: ClickHouseProbeSettings,
  timeoutMs: number,
): Promise<void> {
  const client = createClient({
    url: settings.url,
    username: settings.username ?? 'default',
    password: settings.password ?? '',
    request_timeout: timeoutMs,
    // The client logs each failed request with its stack; the caller reports the failure.
    log: { level: ClickHouseLogLevel.OFF },
  });
  try {
    await client.command({ query: 'SELECT 1' });
  } finally {
    await client.close();
  }
}
