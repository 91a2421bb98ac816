import { CLOUD_USAGE_DATA_START } from '@contracts/usage/usage-schema';
import type { Config } from '../config';
import type { Service } from '../http/service';
import type { UsageAvailability } from './http/prepare-usage-request';
import { createIngestRoutes } from './http/ingest-routes';
import { createUsageRoutes } from './http/usage-routes';
import { describeDemoKeys } from './seed/demo-keys';
import { demoProfile, type SeedProfile } from './seed/seed-profiles';
import { openUsageBackend } from './store/open-usage-backend';
import type { UsageBackend } from './store/usage-backend';

export interface UsageServiceOptions {
  /** Dataset loaded into an empty store; defaults to the demo profile ending now. */
  seedProfile?: SeedProfile;
  /** Print the demo keys after seeding (off in tests). */
  announce?: boolean;
}

export type UsageService = Service & { ingestTrace: UsageBackend['ingestTrace'] };

export function usageAvailability(config: Config): UsageAvailability {
  if (config.USAGE_DEPLOYMENT_MODE === 'cloud') {
    return { enabled: true, floorMs: Date.parse(CLOUD_USAGE_DATA_START) };
  }
  const enabled =
    config.DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING &&
    config.GRANULAR_USAGE_TABLE_ENABLED;
  return { enabled, floorMs: null };
}

/**
 * The usage API (issue 3) over the configured backend (`DATA_DIR/usage.duckdb` by default):
 * migrates it, loads the demo dataset into an empty store (unless USAGE_SEED=none) and mounts
 * the routes at /api/v1.
 */
export async function createUsageService(
  config: Config,
  options: UsageServiceOptions = {},
): Promise<UsageService> {
  const backend = await openUsageBackend(config);
  const announce = options.announce ?? true;
  try {
    if (config.USAGE_SEED === 'demo') {
      const profile = options.seedProfile ?? demoProfile(Date.now());
      // Loading ClickHouse takes a minute or two: say what it is doing meanwhile.
      const progress =
        announce && backend.kind === 'clickhouse'
          ? (message: string) => console.log(`Usage demo data: ${message}`)
          : undefined;
      const result = await backend.seedIfEmpty(profile, progress);
      if (result.seeded && announce) {
        console.log(`Usage demo data: ${result.traces} traces loaded in ${result.ms} ms.`);
      }
      if (announce) console.log(describeDemoKeys());
    }
  } catch (error) {
    await backend.close();
    throw error;
  }
  const app = createUsageRoutes(backend, usageAvailability(config));
  // LangSmith trace ingestion (the langsmith SDK's endpoints), under /api/v1 and at the root.
  const ingest = createIngestRoutes(backend, {
    maxBodyBytes: config.USAGE_INGEST_MAX_BODY_BYTES,
  });
  app.route('/', ingest);
  return {
    name: 'usage',
    basePath: '/api/v1',
    app,
    rootApp: ingest,
    ingestTrace: backend.ingestTrace,
    health: () => backend.health(),
    close: () => backend.close(),
  };
}
