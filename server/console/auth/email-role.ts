import type { ConsoleRole } from '@contracts/console-roles';

/** Who may use an oidc console: admins by address, viewers by domain. Lowercase entries. */
export interface EmailRoles {
  adminEmails: readonly string[];
  viewerDomains: readonly string[];
}

/**
 * The console role of an identity provider's user: only a verified e-mail counts; listed
 * addresses are admins, addresses of a listed domain viewers, anyone else has no access (null).
 */
export function roleOfEmail(
  email: unknown,
  emailVerified: unknown,
  roles: EmailRoles,
): ConsoleRole | null {
  if (typeof email !== 'string' || emailVerified !== true) return null;
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  if (roles.adminEmails.includes(address)) return 'admin';
  return roles.viewerDomains.includes(address.slice(at + 1)) ? 'viewer' : null;
}
