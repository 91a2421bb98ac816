import { CLOUD_USAGE_DATA_START } from '@contracts/usage/usage-schema';
import type { Config } from '../config';
import type { Service } from '../http/service';
import type { UsageAvailability } from './http/prepare-usage-request';
import { createApiKeyRoutes } from './http/api-key-routes';
import { createAuditRoutes } from './http/audit-routes';
import { createDeploymentMetricsRoutes } from './http/deployment-metrics-routes';
import type { Metrics } from '@server/metrics/metrics';
import { createBillingRoutes } from './http/billing-routes';
import { createFeedbackRoutes } from './http/feedback-routes';
import { createIngestRoutes } from './http/ingest-routes';
import { createSessionRoutes } from './http/session-routes';
import { createUsageLimitRoutes } from './http/usage-limit-routes';
import { createModelPriceRoutes } from './http/model-price-routes';
import { buildDimensions } from './seed/build-dimensions';
import { llmSeedBatches } from './seed/llm-seed';
import { createUsageLimitStatusRoutes } from './http/usage-limit-status-routes';
import { createUsageRoutes } from './http/usage-routes';
import { createAlertEvaluator, type AlertEvaluator } from './limits/alert-evaluator';
import { planTracePrices } from './limits/plan-prices';
import type { WebhookConfig } from './limits/webhook-sender';
import { describeDemoKeys } from './seed/demo-keys';
import { demoProfile, type SeedProfile } from './seed/seed-profiles';
import { openUsageStore } from './store/open-usage-store';
import type { UsageStore } from './store/usage-store';

export interface UsageServiceOptions {
  /** Dataset loaded into an empty store; defaults to the demo profile ending now. */
  seedProfile?: SeedProfile;
  /** Print the demo keys after seeding (off in tests). */
  announce?: boolean;
  /** A store opened by the caller (tests pass one with fixtures); the service closes it. */
  store?: UsageStore;
  /** Where ingestion counts and query latencies go (`/metrics`); none when metrics are off. */
  metrics?: Pick<Metrics, 'ingested' | 'usageQuery' | 'databaseClients'>;
}

export type UsageService = Service & {
  /** Usage-limit alerts: `idle()` waits for evaluations and webhook deliveries under way. */
  alerts: AlertEvaluator;
  /** The console's sign-ins and the keys they are checked against (`server/console/auth/`). */
  consoleStores: Pick<UsageStore, 'sessions' | 'keys'>;
};

export function usageAvailability(config: Config): UsageAvailability {
  if (config.USAGE_DEPLOYMENT_MODE === 'cloud') {
    return { enabled: true, floorMs: Date.parse(CLOUD_USAGE_DATA_START) };
  }
  const enabled =
    config.DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING &&
    config.GRANULAR_USAGE_TABLE_ENABLED;
  return { enabled, floorMs: null };
}

/** The alert webhook the configuration names, or none (alerts then show on the tab only). */
function alertWebhook(config: Config): WebhookConfig | undefined {
  if (!config.USAGE_ALERT_WEBHOOK_URL || !config.USAGE_ALERT_WEBHOOK_SECRET) return undefined;
  return {
    url: config.USAGE_ALERT_WEBHOOK_URL,
    secret: config.USAGE_ALERT_WEBHOOK_SECRET,
    attempts: Math.max(1, config.USAGE_ALERT_WEBHOOK_ATTEMPTS),
    baseDelayMs: config.USAGE_ALERT_WEBHOOK_BACKOFF_MS,
    timeoutMs: 10_000,
  };
}

/**
 * The usage API over the configured backend (`DATA_DIR/usage.duckdb` by default):
 * migrates it, loads the demo dataset into an empty store (unless USAGE_SEED=none) and mounts
 * the routes at /api/v1.
 */
export async function createUsageService(
  config: Config,
  options: UsageServiceOptions = {},
): Promise<UsageService> {
  const backend = options.store ?? (await openUsageStore(config));
  const announce = options.announce ?? true;
  try {
    if (config.USAGE_SEED === 'demo') {
      const profile = options.seedProfile ?? demoProfile(Date.now());
      // Loading ClickHouse takes a minute or two: say what it is doing meanwhile.
      const progress =
        announce && backend.kind === 'clickhouse'
          ? (message: string) => console.log(`Usage demo data: ${message}`)
          : undefined;
      const result = await backend.seeder.seedIfEmpty(profile, progress);
      // The demo's LLM usage goes in with the traces' seed, once (replicas: the one that seeded).
      if (result.seeded) {
        for (const batch of llmSeedBatches(profile, buildDimensions(profile))) {
          await backend.llm.record(batch);
        }
      }
      if (result.seeded && announce) {
        console.log(`Usage demo data: ${result.traces} traces loaded in ${result.ms} ms.`);
      }
      if (announce) console.log(describeDemoKeys());
    }
  } catch (error) {
    await backend.close();
    throw error;
  }
  const { metrics } = options;
  metrics?.databaseClients(() => backend.clientSizes());
  const app = createUsageRoutes(
    backend,
    usageAvailability(config),
    metrics && ((kind, groupBy, seconds) => metrics.usageQuery(kind, groupBy, seconds)),
  );
  // Usage limits: enforced inside ingestRuns; alerts looked at after billing.
  const { limits } = backend;
  const alerts = createAlertEvaluator(limits, {
    webhook: alertWebhook(config),
    prices: () => planTracePrices(backend.ledger),
  });
  app.route('/', createUsageLimitRoutes({ backend, limits, alerts }));
  app.route('/', createUsageLimitStatusRoutes(backend, limits));
  // What LLM runs cost: each workspace's model price map (admins change it).
  app.route('/', createModelPriceRoutes(backend));
  // LangSmith trace ingestion (the langsmith SDK's endpoints), under /api/v1 and at the root.
  const ingest = createIngestRoutes(backend, {
    maxBodyBytes: config.USAGE_INGEST_MAX_BODY_BYTES,
    onBilled: (workspaceId) => alerts.look(workspaceId),
    onIngested:
      options.metrics && ((billed, refusedBy) => options.metrics?.ingested(billed, refusedBy)),
  });
  app.route('/', ingest);
  // Feedback on runs (the SDK's createFeedback), which upgrades traces to extended retention.
  const feedback = createFeedbackRoutes(backend);
  app.route('/', feedback);
  ingest.route('/', feedback);
  // The billing period, the plan and prices, and invoices.
  app.route('/', createBillingRoutes(backend));
  // Deployment replicas meter their runs, nodes and uptime here (kind=langsmith_deployments).
  app.route('/', createDeploymentMetricsRoutes(backend));
  // Projects and their default retention tier (trace_tier), as LangSmith's project settings.
  app.route('/', createSessionRoutes(backend));
  // API keys with roles and the audit log of every change made through the API (admins).
  app.route('/', createApiKeyRoutes(backend));
  app.route('/', createAuditRoutes(backend));
  return {
    name: 'usage',
    basePath: '/api/v1',
    app,
    rootApp: ingest,
    alerts,
    consoleStores: { sessions: backend.sessions, keys: backend.keys },
    health: () => backend.health(),
    close: async () => {
      // Deliveries under way write their log through the backend: let them finish first.
      await alerts.idle();
      await backend.close();
    },
  };
}
