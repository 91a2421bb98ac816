import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  checkWebhookUrl,
  DEFAULT_WEBHOOK_POLICY,
  type WebhookPolicy,
} from './webhook-policy';

const policy = (overrides: Partial<WebhookPolicy> = {}) => ({
  ...DEFAULT_WEBHOOK_POLICY,
  ...overrides,
});
const detailOf = (url: string, rules: Partial<WebhookPolicy> = {}) => {
  const checked = checkWebhookUrl(url, policy(rules));
  return checked.ok ? null : checked.detail;
};

describe('checkWebhookUrl by default', () => {
  it.each([
    'https://hooks.example.com/run',
    'http://hooks.example.com:8080/run?x=1',
    'http://8.8.8.8/',
    'http://[2606:4700::1111]/',
    '/custom/webhook',
  ])('%s is accepted', (url) => {
    expect(detailOf(url)).toBeNull();
  });

  // Every numeric form the URL parser turns into a loopback, private or metadata address.
  it.each([
    ['http://127.0.0.1:8123/?query=INSERT', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://localhost:5173/', 'loopback'],
    ['http://api.localhost/', 'loopback'],
    ['http://10.0.0.5/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://100.64.0.1/', 'private'],
    ['http://[fd12::1]/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://[fd00:ec2::254]/', 'metadata'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
  ])('%s is refused (%s)', (url, addressClass) => {
    expect(detailOf(url)).toMatch(new RegExp(`^webhook: .* ${addressClass} address`));
  });

  it.each([
    ['ftp://hooks.example.com/', 'webhook: must be http(s)'],
    ['file:///etc/passwd', 'webhook: must be http(s)'],
    ['//evil.example/x', 'webhook: not a URL or a path of this server (/...)'],
    ['not a url', 'webhook: not a URL or a path of this server (/...)'],
  ])('%s is refused: %s', (url, detail) => {
    expect(detailOf(url)).toBe(detail);
  });
});

describe('checkWebhookUrl with the langgraph.json rules', () => {
  const cases: [string, Partial<WebhookPolicy>, string | null][] = [
    ['http://hooks.example.com/', { requireHttps: true }, 'webhook: must be https'],
    ['https://hooks.example.com/', { requireHttps: true }, null],
    ['/custom/webhook', { requireHttps: true }, null],
    ['https://a.mycorp.com/', { allowedDomains: ['*.mycorp.com'] }, null],
    ['https://a.b.mycorp.com/', { allowedDomains: ['*.mycorp.com'] }, null],
    [
      'https://mycorp.com/',
      { allowedDomains: ['*.mycorp.com'] },
      'webhook: host mycorp.com is not an allowed domain',
    ],
    [
      'https://evilmycorp.com/',
      { allowedDomains: ['*.mycorp.com'] },
      'webhook: host evilmycorp.com is not an allowed domain',
    ],
    ['https://hooks.example.com/', { allowedDomains: ['hooks.example.com'] }, null],
    [
      'https://x.hooks.example.com/',
      { allowedDomains: ['hooks.example.com'] },
      'webhook: host x.hooks.example.com is not an allowed domain',
    ],
    ['https://hooks.example.com/', { allowedPorts: [443] }, null],
    ['http://hooks.example.com/', { allowedPorts: [443] }, 'webhook: port 80 is not allowed'],
    ['https://hooks.example.com:8443/', { allowedPorts: [8443] }, null],
    [
      'https://hooks.example.com:8443/',
      { allowedPorts: [443] },
      'webhook: port 8443 is not allowed',
    ],
    ['https://hooks.example.com/long', { maxUrlLength: 20 }, 'webhook: longer than 20 characters'],
    [
      '/custom/webhook',
      { disableLoopback: true },
      'webhook: relative URLs (this server) are not allowed',
    ],
    [
      'https://hooks.example.com/',
      { enabled: false },
      'webhook: webhooks are disabled on this server (WEBHOOKS_ENABLED)',
    ],
  ];
  it.each(cases)('%s with %j: %s', (url, rules, detail) => {
    expect(detailOf(url, rules)).toBe(detail);
  });
});

describe('addressRefusal with WEBHOOK_ALLOW_PRIVATE_HOSTS', () => {
  it.each([
    [['hooks.internal'], 'hooks.internal', '10.0.0.5', null],
    [['hooks.internal'], 'other.internal', '10.0.0.5', 'a private address'],
    [['10.0.0.0/8'], 'any.internal', '10.9.9.9', null],
    [['10.0.0.0/8'], 'any.internal', '192.168.0.1', 'a private address'],
    [['127.0.0.1'], '127.0.0.1', '127.0.0.1', null],
    [['::1'], '::1', '::1', null],
    [['127.0.0.1'], '127.1', '127.0.0.2', 'a loopback address'],
    // A metadata address stays closed, whatever the list names.
    [['169.254.0.0/16'], 'meta.internal', '169.254.169.254', 'a cloud metadata address'],
    [['fd00::/8'], 'meta6.internal', 'fd00:ec2::254', 'a cloud metadata address'],
  ] as const)('%j, %s at %s: %s', (privateHosts, host, address, expected) => {
    const refusal = addressRefusal(host, address, policy({ privateHosts: [...privateHosts] }));
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toContain(expected);
  });
});
