import type { ConsoleRole } from '@contracts/console-roles';
import type { Workspace } from '@contracts/usage/usage-schema';

/** The permission changing usage limits (`server/usage/http/limit-request.ts`): admins hold it. */
const MANAGE_PERMISSION = 'usage-limits:manage';
/** The permission every usage read needs. */
const READ_PERMISSION = 'organization:read';

/**
 * The console role of an embedded usage API key, from its permissions: `usage-limits:manage` is
 * an admin, `organization:read` a viewer; a key with neither cannot read usage (null).
 */
export function roleOfPermissions(permissions: readonly string[]): ConsoleRole | null {
  if (permissions.includes(MANAGE_PERMISSION)) return 'admin';
  if (permissions.includes(READ_PERMISSION)) return 'viewer';
  return null;
}

/**
 * The console role of a remote LangSmith key, from what `GET /workspaces` shows of it: a key
 * that manages any of its workspaces is an admin, one that only reads them a viewer.
 */
export function roleOfWorkspaces(workspaces: readonly Pick<Workspace, 'permissions'>[]) {
  return workspaces.some((workspace) => workspace.permissions.includes('workspaces:manage'))
    ? 'admin'
    : 'viewer';
}
