import { z } from 'zod/mini';

/**
 * `GET /_console/config`: the secret-free part of the server's configuration, telling the SPA
 * which sources its default connections reach. Never holds a key.
 */
export const consoleConfigSchema = z.object({
  usage: z.object({
    source: z.enum(['embedded', 'langsmith']),
    upstream: z.nullable(z.string()),
    deploymentMode: z.enum(['cloud', 'self-hosted']),
    /** Embedded data: `demo` (seeded with demo keys) or `none` (starts empty, keys by CLI). */
    seed: z._default(z.enum(['demo', 'none']), 'demo'),
    /**
     * What serves the usage data: the embedded DuckDB file, the scale-out ClickHouse (with
     * Postgres), or a remote LangSmith read through the proxy.
     */
    backend: z._default(z.enum(['duckdb', 'clickhouse', 'langsmith']), 'duckdb'),
  }),
  deployment: z.object({
    source: z.enum(['embedded', 'remote']),
    upstream: z.nullable(z.string()),
    /**
     * Whether the embedded deployment bills its runs in the embedded usage data, each in a
     * project named after its graph (false: tracing off, traced to LangSmith, or remote).
     */
    tracesToEmbeddedUsage: z._default(z.boolean(), false),
  }),
});
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;
