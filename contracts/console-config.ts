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
  }),
  deployment: z.object({
    source: z.enum(['embedded', 'remote']),
    upstream: z.nullable(z.string()),
    /**
     * The embedded usage project the embedded deployment bills its runs to (named after its
     * graph); null when its runs are not traced there (tracing off, or traced to LangSmith).
     */
    tracingProject: z.nullish(z.string()),
  }),
});
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;
