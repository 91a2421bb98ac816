import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { ConsoleConfig } from '@contracts/console-config';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((value) => value === 'true' || value === '1');

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(
    z
      .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
      .refine((value) => {
        const url = URL.parse(value);
        return url === null || (url.username === '' && url.password === '');
      }, 'must not carry credentials (user:password@); put the key in the matching *_API_KEY')
      .optional(),
  )
  .optional();

/** A whole number in [0, max]; unset gives `fallback`, but an empty value is a mistake. */
const integer = (fallback: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number from 0 to ${max}`)
    .transform(Number)
    .refine((value) => value <= max, `must be a whole number from 0 to ${max}`)
    .optional()
    .transform((value) => value ?? fallback);

/** Comma-separated host names; empty entries are dropped. */
const hostList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== ''),
  );

/** A host name, an IP address, or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
function isHostOrRange(entry: string): boolean {
  const [base = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const family = isIP(base);
  if (prefix !== undefined) {
    return family !== 0 && /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  }
  return (
    family !== 0 ||
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(base)
  );
}

const optionalSecret = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** An optional URL of one of `protocols`, without userinfo (credentials have their own variables). */
const optionalServerUrl = (protocols: RegExp, example: string, credentials: string) =>
  z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : value))
    .pipe(
      z
        .string()
        .refine(
          (value) => protocols.test(URL.parse(value)?.protocol ?? ''),
          `must be a URL like ${example}`,
        )
        .refine((value) => {
          const url = URL.parse(value);
          return url === null || credentials === '' || (url.username === '' && url.password === '');
        }, `must not carry credentials (user:password@); use ${credentials}`)
        .optional(),
    )
    .optional();

/** Whether a URL's host name is this machine only. */
function isLoopbackHostname(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * Every environment variable the server reads, in one place. Secrets (API keys) stay on the
 * server: `publicConfig` below is the only part of this object that may reach the browser.
 */
const envSchema = z
  .object({
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    PORT: integer(5173, 65_535),
    /** `GET /metrics` (Prometheus text format): on unless `false`. */
    METRICS_ENABLED: z
      .enum(['true', 'false', '1', '0', ''])
      .default('true')
      .transform((value) => value !== 'false' && value !== '0'),
    /** Serves `/metrics` on this port of HOST instead of the server's own; unset: PORT. */
    METRICS_PORT: z
      .string()
      .trim()
      .transform((value) => (value === '' ? undefined : value))
      .pipe(
        z
          .string()
          .regex(/^\d+$/, 'must be a port number from 1 to 65535')
          .transform(Number)
          .refine((port) => port >= 1 && port <= 65_535, 'must be a port number from 1 to 65535')
          .optional(),
      )
      .optional(),
    /**
     * Host names `/_console/*` and `/deployment/*` answer to, besides localhost and HOST
     * (DNS-rebinding guard):
     * the names a browser uses to reach this server behind a proxy or on a LAN address.
     */
    ALLOWED_HOSTS: hostList,
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
    /**
     * How people sign in to the console: `none` (the console acts with the server's keys for every
     * browser), `apikey` (each person signs in with their own usage API key) or `oidc` (the
     * organization's identity provider; the console then acts with the server's key and
     * enforces each person's role itself). Unset means `none`, but a server reachable from other
     * machines refuses to start without a sign-in unless `none` is set explicitly.
     */
    CONSOLE_AUTH: z
      .string()
      .trim()
      .transform((value) => (value === '' ? undefined : value))
      .pipe(z.enum(['none', 'apikey', 'oidc']).optional())
      .optional(),
    /**
     * The address browsers open the console at, e.g. https://usage.example.com: the OIDC
     * redirect is `${CONSOLE_PUBLIC_URL}/_console/auth/callback`, and an https address marks the
     * session cookie `Secure` (`__Host-`).
     */
    CONSOLE_PUBLIC_URL: optionalUrl,
    /** A session unused this long (seconds) asks to sign in again. */
    CONSOLE_SESSION_IDLE_SECONDS: integer(3_600, 31_536_000),
    /** No session outlives this (seconds) from its sign-in, however busy. */
    CONSOLE_SESSION_MAX_SECONDS: integer(43_200, 31_536_000),
    /** Sign-in attempts one client address may make per minute (429 with Retry-After above). */
    CONSOLE_SIGN_IN_PER_MINUTE: integer(10, 10_000),
    /** `oidc`: the identity provider's issuer (its `/.well-known/openid-configuration`). */
    OIDC_ISSUER_URL: optionalUrl,
    OIDC_CLIENT_ID: optionalSecret,
    OIDC_CLIENT_SECRET: optionalSecret,
    /** `oidc`: verified e-mail addresses that are console admins, comma-separated. */
    CONSOLE_ADMIN_EMAILS: hostList,
    /** `oidc`: e-mail domains whose verified users may view (read, export, playground). */
    CONSOLE_VIEWER_DOMAINS: hostList,
    /**
     * Trust `X-Forwarded-Proto` (and `X-Forwarded-For` for the sign-in rate limit) from the
     * reverse proxy in front of this server. Only set it when every request passes that proxy.
     */
    CONSOLE_TRUST_PROXY: booleanFlag,
    /** Largest body the trace ingestion endpoints accept (`/runs/*`; 413 above). 32 MiB. */
    USAGE_INGEST_MAX_BODY_BYTES: integer(33_554_432, 1_073_741_824),
    /**
     * Where usage-limit alerts are POSTed (JSON, signed with USAGE_ALERT_WEBHOOK_SECRET in
     * `x-usage-signature`); unset: alerts show on the usage tab only.
     */
    USAGE_ALERT_WEBHOOK_URL: optionalUrl,
    USAGE_ALERT_WEBHOOK_SECRET: optionalSecret,
    /** Delivery attempts per alert, and the wait before the first retry (doubled each time). */
    USAGE_ALERT_WEBHOOK_ATTEMPTS: integer(5, 20),
    USAGE_ALERT_WEBHOOK_BACKOFF_MS: integer(1000, 600_000),

    /** When set, the console reads usage from this LangSmith base URL instead of the embedded data. */
    LANGSMITH_ENDPOINT: optionalUrl,
    LANGSMITH_API_KEY: optionalSecret,

    /** When set, the console's playground talks to this deployment instead of the embedded one. */
    LANGGRAPH_DEPLOYMENT_URL: optionalUrl,
    LANGGRAPH_API_KEY: optionalSecret,
    /**
     * How `/deployment` authenticates: `noop` (no credential) or `langsmith` (`x-api-key` checked
     * against the usage service's keys, or LANGSMITH_AUTH_ENDPOINT's). Unset means `noop`, but a
     * server reachable from other machines refuses to start open unless it is set explicitly.
     */
    LANGGRAPH_AUTH_TYPE: z
      .string()
      .trim()
      .transform((value) => (value === '' ? undefined : value))
      .pipe(z.enum(['noop', 'langsmith']).optional())
      .optional(),
    /**
     * Custom auth, as langgraph.json's `auth` (which it overrides): JSON
     * `{"path": "./auth.mts:auth", "disable_studio_auth": false}`, the path relative to the
     * working directory.
     */
    LANGGRAPH_AUTH: optionalSecret,
    /** A LangSmith API base (its `/api/v1/workspaces` answers for a key) checking `langsmith` keys. */
    LANGSMITH_AUTH_ENDPOINT: optionalUrl,
    /** Time each step of the scripted demo model takes, in milliseconds. */
    DEMO_MODEL_STEP_MS: integer(1000, 60_000),
    /**
     * Idle time after which a deployment SSE stream gets a `: heartbeat` comment, in ms; 0 sends
     * none. LangGraph Platform's 5 s is the cadence the SDK's idle reconnect is tuned for.
     */
    SSE_HEARTBEAT_INTERVAL_MS: integer(5000, 60_000),
    /**
     * Deployment streams (runs, joins, thread streams, protocol v2 events) one client may hold
     * open at once: its authenticated identity, else its address. More answer 429.
     */
    DEPLOYMENT_STREAMS_PER_CLIENT: integer(500, 1_000_000),
    /** Deployment streams this process holds open for all clients together; more answer 503. */
    DEPLOYMENT_MAX_STREAMS: integer(2000, 1_000_000),
    /**
     * A `langgraph.json` whose graphs the deployment serves instead of the demo `agent`
     * (`npm start -- --graphs path` sets it too).
     */
    LANGGRAPH_CONFIG: optionalSecret,
    /** Serves `POST /deployment/internal/truncate` (empties tables), for the official test suite. */
    DEPLOYMENT_TEST_ROUTES: booleanFlag,
    /**
     * Whether the embedded deployment traces its runs with the langsmith SDK: to the embedded
     * usage server (billed there), or to LANGSMITH_ENDPOINT when set.
     */
    DEPLOYMENT_TRACING: z
      .enum(['true', 'false', '1', '0', ''])
      .default('true')
      .transform((value) => value !== 'false' && value !== '0'),
    /**
     * Origins of the web pages that may call `/deployment` (CORS), comma-separated, `*` for any.
     * Unset: LangGraph Studio's. A langgraph.json's `http.cors` wins over it, as on the official
     * server.
     */
    CORS_ALLOW_ORIGINS: z
      .string()
      .optional()
      .transform((value) =>
        value
          ?.split(',')
          .map((origin) => origin.trim())
          .filter((origin) => origin !== ''),
      ),

    /**
     * The usage service on ClickHouse (traces, rollups) and Postgres (DATABASE_URI: keys, catalog,
     * billed run ids in schema `usage`) instead of the embedded DuckDB file; both or neither.
     */
    CLICKHOUSE_URL: optionalServerUrl(
      /^https?:$/,
      'http://127.0.0.1:8123',
      'CLICKHOUSE_USER/CLICKHOUSE_PASSWORD',
    ),
    CLICKHOUSE_USER: optionalSecret,
    CLICKHOUSE_PASSWORD: optionalSecret,
    /** Created when missing. */
    CLICKHOUSE_DATABASE: z
      .string()
      .trim()
      .transform((value) => (value === '' ? undefined : value))
      .pipe(
        z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier (letters, digits, _)')
          .optional(),
      )
      .optional(),
    /**
     * Postgres (14 or later) of the scale-out backends, e.g. postgres://user:pass@host:5432/db:
     * alone, the deployment API keeps threads, runs, assistants, crons, store items and checkpoints
     * there (schema `deployment`) instead of `DATA_DIR/deployment.sqlite`; with CLICKHOUSE_URL, the
     * usage service keeps keys, catalog and billed run ids there too (schema `usage`).
     */
    DATABASE_URI: optionalServerUrl(/^postgres(ql)?:$/, 'postgres://user@host:5432/db', ''),
    /**
     * Redis for cluster mode (with DATABASE_URI): run wake-ups, cancellation and live stream events
     * between replicas, so any number of them serve one deployment.
     */
    REDIS_URI: optionalServerUrl(/^rediss?:$/, 'redis://host:6379', ''),
    /**
     * Cluster mode: how long a replica holds a run without renewing its lease (it renews every
     * third of it). A killed replica's run is settled by another replica after at most this long.
     */
    DEPLOYMENT_RUN_LEASE_MS: integer(30_000, 600_000),
    /**
     * Cluster mode, on SIGTERM / SIGINT: how long executing runs may take to finish before the
     * replica hands them back to the queue for another replica (the Agent Server's
     * BG_JOB_SHUTDOWN_GRACE_PERIOD_SECS, 180 s by default there too).
     */
    DEPLOYMENT_SHUTDOWN_GRACE_MS: integer(180_000, 3_600_000),
    /**
     * The embedded deployment meters its runs, node executions and uptime into this process's
     * usage service (the Deployments domain), as LangSmith self-hosted does with this flag. On
     * unless `false` (the demo bills its own deployment).
     */
    REMOTE_METRICS_ROLLUP_ENABLED: z
      .enum(['true', 'false', '1', '0', ''])
      .default('true')
      .transform((value) => value !== 'false' && value !== '0'),
    /** How often a deployment replica reports its metrics and uptime heartbeat, in ms. */
    REMOTE_METRICS_INTERVAL_MS: integer(15_000, 3_600_000),
    /**
     * Run and cron webhooks: `false` turns them off (a run or cron naming one is refused, 422).
     * langgraph.json `webhooks` sets the URL rules and headers.
     */
    WEBHOOKS_ENABLED: z
      .enum(['true', 'false', '1', '0', ''])
      .default('true')
      .transform((value) => value !== 'false' && value !== '0'),
    /** Signs every webhook: `X-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
    WEBHOOK_SIGNING_SECRET: optionalSecret,
    /**
     * Hosts whose loopback, private or link-local addresses webhooks may reach (closed by
     * default), comma-separated: host names, IP addresses or CIDR ranges. Cloud metadata
     * addresses stay closed.
     */
    WEBHOOK_ALLOW_PRIVATE_HOSTS: hostList.refine(
      (entries) => entries.every(isHostOrRange),
      'must list host names, IP addresses or CIDR ranges (10.0.0.0/8), comma-separated',
    ),
  })
  .superRefine((env, context) => {
    if (env.USAGE_ALERT_WEBHOOK_URL && !env.USAGE_ALERT_WEBHOOK_SECRET) {
      context.addIssue({
        code: 'custom',
        path: ['USAGE_ALERT_WEBHOOK_SECRET'],
        message: 'is required when USAGE_ALERT_WEBHOOK_URL is set (alerts are always signed)',
      });
    }
    if (env.REDIS_URI && !env.DATABASE_URI) {
      context.addIssue({
        code: 'custom',
        path: ['REDIS_URI'],
        message: 'cluster mode needs DATABASE_URI too (Redis carries no state of its own)',
      });
    }
    // A half-given ClickHouse setup stops start-up rather than falling back to DuckDB silently.
    if (env.CLICKHOUSE_URL && !env.DATABASE_URI) {
      context.addIssue({
        code: 'custom',
        path: ['DATABASE_URI'],
        message:
          'required when CLICKHOUSE_URL is set (keys, catalog and billed run ids live in Postgres)',
      });
    }
    if (env.CONSOLE_AUTH === 'oidc') {
      for (const name of ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'CONSOLE_PUBLIC_URL'] as const) {
        if (!env[name]) {
          context.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when CONSOLE_AUTH=oidc',
          });
        }
      }
      const issuer = env.OIDC_ISSUER_URL ? new URL(env.OIDC_ISSUER_URL) : undefined;
      // A plain-http identity provider is a local one (tests, a developer's): never a real one.
      if (issuer?.protocol === 'http:' && !isLoopbackHostname(issuer.hostname)) {
        context.addIssue({
          code: 'custom',
          path: ['OIDC_ISSUER_URL'],
          message: 'must be https (http only on a loopback address: localhost, 127.0.0.1, ::1)',
        });
      }
    }
    const dangling = (
      ['CLICKHOUSE_USER', 'CLICKHOUSE_PASSWORD', 'CLICKHOUSE_DATABASE'] as const
    ).filter((name) => env[name] !== undefined);
    if (!env.CLICKHOUSE_URL && dangling.length > 0) {
      context.addIssue({
        code: 'custom',
        path: ['CLICKHOUSE_URL'],
        message: `required when ${dangling.join(', ')} ${dangling.length > 1 ? 'are' : 'is'} set`,
      });
    }
  });

export type Config = Omit<z.infer<typeof envSchema>, 'DATA_DIR'> & { DATA_DIR: string };

/** The name of every variable the schema reads: the configuration reference lists each one. */
export const CONFIG_VARIABLE_NAMES: readonly string[] = Object.keys(envSchema.shape);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads `./.env` into `process.env` when present; variables already set win. The server and the
 * CLIs that open the data directory (seed, bench) call it, so they agree on DATA_DIR.
 */
export function loadDotEnv(): void {
  if (process.env.USAGE_CONSOLE_NO_DOTENV === '1') return;
  try {
    process.loadEnvFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
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

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '::1'];
const WILDCARD_HOSTS = ['0.0.0.0', '::', ''];

/** Host names the console proxy answers to: loopback, HOST (unless a wildcard), ALLOWED_HOSTS. */
export function allowedHosts(config: Config): ReadonlySet<string> {
  const host = config.HOST.replace(/^\[|\]$/g, '').toLowerCase();
  const own = WILDCARD_HOSTS.includes(host) ? [] : [host];
  return new Set([...LOOPBACK_HOSTS, ...own, ...config.ALLOWED_HOSTS]);
}

/**
 * The base URL a client on this machine reaches the server at: HOST, or loopback when HOST is a
 * wildcard (listening everywhere), and PORT.
 */
export function localBaseUrl(config: Pick<Config, 'HOST' | 'PORT'>): string {
  const host = config.HOST.replace(/^\[|\]$/g, '');
  const reachable = WILDCARD_HOSTS.includes(host) ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${config.PORT}`;
}

/** An upstream URL as the browser may see it: no userinfo, query or fragment (they can hold keys). */
function withoutSecrets(url: string | undefined): string | null {
  if (!url) return null;
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** What the SPA may know about the server's configuration: never a secret. */
export function publicConfig(config: Config): ConsoleConfig {
  return {
    usage: {
      source: config.LANGSMITH_ENDPOINT ? 'langsmith' : 'embedded',
      upstream: withoutSecrets(config.LANGSMITH_ENDPOINT),
      deploymentMode: config.USAGE_DEPLOYMENT_MODE,
      seed: config.USAGE_SEED,
      backend: config.LANGSMITH_ENDPOINT
        ? 'langsmith'
        : config.CLICKHOUSE_URL
          ? 'clickhouse'
          : 'duckdb',
    },
    deployment: {
      source: config.LANGGRAPH_DEPLOYMENT_URL ? 'remote' : 'embedded',
      upstream: withoutSecrets(config.LANGGRAPH_DEPLOYMENT_URL),
      tracesToEmbeddedUsage:
        config.DEPLOYMENT_TRACING && !config.LANGGRAPH_DEPLOYMENT_URL && !config.LANGSMITH_ENDPOINT,
    },
  };
}
