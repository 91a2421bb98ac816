import path from 'node:path';
import { z } from 'zod';
import type { ConsoleConfig } from '@contracts/console-config';
import { AGENT_GRAPH_ID } from './deployment/graph/graph-id';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((value) => value === 'true' || value === '1');

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.url({ message: 'must be an absolute http(s) URL' }).optional())
  .optional();

const optionalSecret = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/**
 * Every environment variable the server reads, in one place. Secrets (API keys) stay on the
 * server: `publicConfig` below is the only part of this object that may reach the browser.
 */
const envSchema = z.object({
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(5173),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  LOG_LEVEL: z.enum(['silent', 'info', 'debug']).default('info'),

  /** `cloud` (data from 2026-01-05) or `self-hosted` (data only when both flags below are true). */
  USAGE_DEPLOYMENT_MODE: z.enum(['cloud', 'self-hosted']).default('cloud'),
  DEFAULT_ORG_FEATURE_ENABLE_GRANULAR_USAGE_REPORTING: booleanFlag,
  GRANULAR_USAGE_TABLE_ENABLED: booleanFlag,
  /** Skip loading the demo dataset into an empty database. */
  USAGE_SEED: z.enum(['demo', 'none']).default('demo'),

  /**
   * The key the console uses against the embedded usage API when the browser sends none.
   * Demo-only default; it never leaves the server.
   */
  USAGE_CONSOLE_API_KEY: z.string().trim().min(1).default('lsv2_demo_admin'),
  /** Largest body the trace ingestion endpoints accept (`/runs/*`; 413 above). 32 MiB. */
  USAGE_INGEST_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(33_554_432),

  /** When set, the console reads usage from this LangSmith base URL instead of the embedded data. */
  LANGSMITH_ENDPOINT: optionalUrl,
  LANGSMITH_API_KEY: optionalSecret,

  /** When set, the console's playground talks to this deployment instead of the embedded one. */
  LANGGRAPH_DEPLOYMENT_URL: optionalUrl,
  LANGGRAPH_API_KEY: optionalSecret,
  /** Time each step of the scripted demo model takes, in milliseconds. */
  DEMO_MODEL_STEP_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /**
   * Whether the embedded deployment traces its runs with the langsmith SDK: to the embedded
   * usage server (billed there), or to LANGSMITH_ENDPOINT when set.
   */
  DEPLOYMENT_TRACING: z
    .enum(['true', 'false', '1', '0', ''])
    .default('true')
    .transform((value) => value !== 'false' && value !== '0'),
});

export type Config = Omit<z.infer<typeof envSchema>, 'DATA_DIR'> & { DATA_DIR: string };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses and validates the environment; the error names every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return { ...parsed.data, DATA_DIR: path.resolve(parsed.data.DATA_DIR) };
}

/** What the SPA may know about the server's configuration: never a secret. */
export function publicConfig(config: Config): ConsoleConfig {
  return {
    usage: {
      source: config.LANGSMITH_ENDPOINT ? 'langsmith' : 'embedded',
      upstream: config.LANGSMITH_ENDPOINT ?? null,
      deploymentMode: config.USAGE_DEPLOYMENT_MODE,
    },
    deployment: {
      source: config.LANGGRAPH_DEPLOYMENT_URL ? 'remote' : 'embedded',
      upstream: config.LANGGRAPH_DEPLOYMENT_URL ?? null,
      tracingProject:
        config.DEPLOYMENT_TRACING && !config.LANGGRAPH_DEPLOYMENT_URL && !config.LANGSMITH_ENDPOINT
          ? AGENT_GRAPH_ID
          : null,
    },
  };
}
