import { z } from 'zod';
import { DEFAULT_WEBHOOK_POLICY, type WebhookPolicy } from './webhook-policy';

/** `webhooks` of langgraph.json, as the Agent Server reads it (langgraph-cli `WebhooksConfig`). */
export const langGraphWebhooksSchema = z.looseObject({
  env_prefix: z.string().min(1).default('LG_WEBHOOK_'),
  url: z
    .looseObject({
      require_https: z.boolean().optional(),
      allowed_domains: z.array(z.string().trim().min(1)).optional(),
      allowed_ports: z.array(z.number().int().min(1).max(65_535)).optional(),
      max_url_length: z.number().int().min(1).optional(),
      disable_loopback: z.boolean().optional(),
    })
    .optional(),
  headers: z.record(z.string(), z.string()).optional(),
});
export type LangGraphWebhooks = z.infer<typeof langGraphWebhooksSchema>;

/** The parts of the policy a langgraph.json sets; the environment adds the rest. */
export type WebhookSettings = Pick<
  WebhookPolicy,
  | 'requireHttps'
  | 'allowedDomains'
  | 'allowedPorts'
  | 'maxUrlLength'
  | 'disableLoopback'
  | 'headers'
>;

const TEMPLATE = /\$\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * A header value with its `${{ env.NAME }}` templates filled in. Only variables starting with
 * `prefix` may be read, so a header can never carry a database password or an API key by mistake.
 */
function resolveTemplate(value: string, prefix: string, env: NodeJS.ProcessEnv): string {
  return value.replace(TEMPLATE, (_match, name: string) => {
    if (!name.startsWith(prefix)) {
      throw new Error(`webhooks.headers may only read variables starting with ${prefix} (${name})`);
    }
    const found = env[name];
    if (found === undefined) throw new Error(`webhooks.headers reads ${name}, which is not set`);
    return found;
  });
}

/** The settings of a langgraph.json `webhooks`, its header templates resolved from `env`. */
export function webhookSettingsOf(
  webhooks: LangGraphWebhooks,
  env: NodeJS.ProcessEnv,
): WebhookSettings {
  const url = webhooks.url ?? {};
  const headers = Object.fromEntries(
    Object.entries(webhooks.headers ?? {}).map(([name, value]) => [
      name,
      resolveTemplate(value, webhooks.env_prefix, env),
    ]),
  );
  return {
    requireHttps: url.require_https ?? false,
    allowedDomains: (url.allowed_domains ?? []).map((domain) => domain.toLowerCase()),
    allowedPorts: url.allowed_ports ?? [],
    maxUrlLength: url.max_url_length ?? null,
    disableLoopback: url.disable_loopback ?? false,
    headers,
  };
}

/** The environment variables of webhooks (server/config.ts validates them). */
interface WebhookEnv {
  WEBHOOKS_ENABLED: boolean;
  WEBHOOK_SIGNING_SECRET?: string;
  WEBHOOK_ALLOW_PRIVATE_HOSTS: string[];
}

/** The policy from the environment and a langgraph.json's `webhooks` (defaults without one). */
export function webhookPolicyOf(env: WebhookEnv, settings?: WebhookSettings): WebhookPolicy {
  return {
    ...DEFAULT_WEBHOOK_POLICY,
    ...settings,
    enabled: env.WEBHOOKS_ENABLED,
    signingSecret: env.WEBHOOK_SIGNING_SECRET,
    privateHosts: env.WEBHOOK_ALLOW_PRIVATE_HOSTS,
  };
}
