import { describe, expect, it } from 'vitest';
import { DEMO_KEY_GRANTS } from '@server/usage/seed/demo-keys';
import { roleOfPermissions, roleOfWorkspaces } from './key-role';

describe('roleOfPermissions', () => {
  it.each([
    [['organization:read', 'workspaces:read', 'runs:create', 'usage-limits:manage'], 'admin'],
    [['organization:read', 'workspaces:read'], 'viewer'],
    [['organization:read', 'runs:create'], 'viewer'],
    [['workspaces:read'], null],
    [[], null],
  ])('%o is %s', (permissions, role) => {
    expect(roleOfPermissions(permissions)).toBe(role);
  });

  it('makes the demo keys an admin, a viewer and no one', () => {
    const roles = DEMO_KEY_GRANTS.map((grant) => [grant.key, roleOfPermissions(grant.permissions)]);
    expect(roles).toEqual([
      ['lsv2_demo_admin', 'admin'],
      ['lsv2_demo_limited', 'viewer'],
      ['lsv2_demo_noperm', null],
    ]);
  });
});

describe('roleOfWorkspaces', () => {
  it.each([
    [
      [
        { permissions: ['workspaces:read'] },
        { permissions: ['workspaces:read', 'workspaces:manage'] },
      ],
      'admin',
    ],
    [[{ permissions: ['workspaces:read'] }], 'viewer'],
    [[], 'viewer'],
  ])('%o is %s', (workspaces, role) => {
    expect(roleOfWorkspaces(workspaces)).toBe(role);
  });
});
