import {
  ORGANIZATION_MANAGE_PERMISSION,
  RUNS_CREATE_PERMISSION,
  USAGE_LIMITS_MANAGE_PERMISSION,
} from '../seed/demo-keys';

/** The roles a key can be made with: what it reads, writes and manages. */
export const KEY_ROLES = ['viewer', 'writer', 'admin'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

const VIEWER = ['organization:read', 'workspaces:read'];

/** The permissions each role carries; a viewer's workspaces are read-only. */
export const ROLE_PERMISSIONS: Readonly<Record<KeyRole, readonly string[]>> = {
  viewer: VIEWER,
  writer: [...VIEWER, RUNS_CREATE_PERMISSION],
  admin: [
    ...VIEWER,
    RUNS_CREATE_PERMISSION,
    USAGE_LIMITS_MANAGE_PERMISSION,
    ORGANIZATION_MANAGE_PERMISSION,
  ],
};

/** The workspace role name a key of `role` is granted (LangSmith's names). */
export const roleWorkspaceGrant = (role: KeyRole) => ({
  roleName: role === 'viewer' ? 'WORKSPACE_VIEWER' : 'WORKSPACE_ADMIN',
  readOnly: role === 'viewer',
});

/** What a key's list shows of it: its prefix and last four characters, never enough to use it. */
export function shortKey(key: string): string {
  return `${key.slice(0, 5)}...${key.slice(-4)}`;
}

/** The role a new key is made with: its own, else a writer or a viewer as `writer` says. */
export function newKeyRole(newKey: { role?: KeyRole; writer?: boolean }): KeyRole {
  return newKey.role ?? (newKey.writer ? 'writer' : 'viewer');
}
