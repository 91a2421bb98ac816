import { describe, expect, it } from 'vitest';
import { langGraphWebhooksSchema, webhookPolicyOf, webhookSettingsOf } from './webhook-config';

const settingsOf = (json: unknown, env: NodeJS.ProcessEnv = {}) =>
  webhookSettingsOf(langGraphWebhooksSchema.parse(json), env);

describe('langgraph.json webhooks', () => {
  it('reads the URL rules and fills header templates from LG_WEBHOOK_ variables', () => {
    const settings = settingsOf(
      {
        url: {
          require_https: true,
          allowed_domains: ['Hooks.Example.com', '*.mycorp.com'],
          allowed_ports: [443, 8443],
          max_url_length: 512,
          disable_loopback: true,
        },
        headers: {
          Authorization: 'Bearer ${{ env.LG_WEBHOOK_TOKEN }}',
          'X-Team': '${{env.LG_WEBHOOK_TEAM}}-${{ env.LG_WEBHOOK_TEAM }}',
          'X-Static': 'plain',
        },
      },
      { LG_WEBHOOK_TOKEN: 't0k3n', LG_WEBHOOK_TEAM: 'core' },
    );
    expect(settings).toEqual({
      requireHttps: true,
      allowedDomains: ['hooks.example.com', '*.mycorp.com'],
      allowedPorts: [443, 8443],
      maxUrlLength: 512,
      disableLoopback: true,
      headers: { Authorization: 'Bearer t0k3n', 'X-Team': 'core-core', 'X-Static': 'plain' },
    });
  });

  it('a template may only read variables with the env_prefix', () => {
    const json = { headers: { Authorization: '${{ env.DATABASE_URI }}' } };
    expect(() => settingsOf(json, { DATABASE_URI: 'postgres://secret' })).toThrow(
      'webhooks.headers may only read variables starting with LG_WEBHOOK_ (DATABASE_URI)',
    );
    expect(
      settingsOf({ env_prefix: 'HOOK_', headers: { A: '${{ env.HOOK_A }}' } }, { HOOK_A: 'x' })
        .headers,
    ).toEqual({ A: 'x' });
  });

  it('a template naming an unset variable stops the load', () => {
    expect(() => settingsOf({ headers: { A: '${{ env.LG_WEBHOOK_MISSING }}' } })).toThrow(
      'webhooks.headers reads LG_WEBHOOK_MISSING, which is not set',
    );
  });

  it.each([
    [{ url: { allowed_ports: [0] } }],
    [{ url: { allowed_ports: ['443'] } }],
    [{ url: { require_https: 'yes' } }],
    [{ headers: { A: 1 } }],
  ])('%j is refused by the schema', (json) => {
    expect(langGraphWebhooksSchema.safeParse(json).success).toBe(false);
  });

  it('the environment gives the switch, the secret and the private hosts', () => {
    const env = {
      WEBHOOKS_ENABLED: false,
      WEBHOOK_SIGNING_SECRET: 's',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: ['10.0.0.0/8'],
    };
    expect(webhookPolicyOf(env, settingsOf({ url: { require_https: true } }))).toMatchObject({
      enabled: false,
      signingSecret: 's',
      privateHosts: ['10.0.0.0/8'],
      requireHttps: true,
    });
  });
});
