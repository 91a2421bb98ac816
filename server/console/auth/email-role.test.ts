import { describe, expect, it } from 'vitest';
import { roleOfEmail } from './email-role';

const roles = { adminEmails: ['ada@example.com'], viewerDomains: ['example.com', 'partner.io'] };

describe('roleOfEmail', () => {
  it.each([
    ['a listed admin', 'ada@example.com', true, 'admin'],
    ['a listed admin, other case', 'Ada@Example.COM', true, 'admin'],
    ['a user of a viewer domain', 'bob@example.com', true, 'viewer'],
    ['a user of another viewer domain', 'eve@partner.io', true, 'viewer'],
    ['a subdomain of a viewer domain', 'bob@mail.example.com', true, null],
    ['a look-alike domain', 'bob@example.com.evil.io', true, null],
    ['an unknown domain', 'mallory@elsewhere.org', true, null],
    ['an admin address not verified', 'ada@example.com', false, null],
    ['a verified flag that is not a boolean', 'ada@example.com', 'true', null],
    ['no e-mail', undefined, true, null],
    ['not an address', 'example.com', true, null],
  ])('%s', (_name, email, verified, role) => {
    expect(roleOfEmail(email, verified, roles)).toBe(role);
  });
});
