import { describe, expect, it } from 'vitest';
import { redactedAddress } from './backend-address';

describe('redactedAddress', () => {
  it.each([
    ['postgres://console:hunter2@db:5432/usage', 'postgres://console:***@db:5432/usage'],
    ['postgres://console@db:5432/usage', 'postgres://console@db:5432/usage'],
    [
      'postgresql://db/usage?user=console&password=hunter2&sslmode=require',
      'postgresql://db/usage?user=console&password=***&sslmode=require',
    ],
    ['redis://:hunter2@cache:6379', 'redis://:***@cache:6379'],
    ['rediss://default:hunter2@cache:6380/0', 'rediss://default:***@cache:6380/0'],
    ['http://127.0.0.1:8123', 'http://127.0.0.1:8123/'],
  ])('prints %s as %s', (uri, printed) => {
    expect(redactedAddress(uri)).toBe(printed);
  });
});
