import type { Context } from 'hono';
import { ORGANIZATION_MANAGE_PERMISSION } from '../seed/demo-keys';
import type { AuditChange, AuditEntry, Principal, UsageStore } from '../store/usage-store';

/** Longer is no e-mail address; it is cut rather than stored whole. */
const MAX_ACTOR_LENGTH = 320;

/**
 * Who made a change: the console's signed-in user, which the console proxy names in
 * `X-Console-Actor`, believed only from a key with the admin permission (any other key could
 * name anyone); else the key's name, never the key.
 */
export function actorOf(consoleActor: string | undefined, principal: Principal): string {
  const named = consoleActor?.trim();
  if (named && principal.permissions.includes(ORGANIZATION_MANAGE_PERMISSION)) {
    return named.slice(0, MAX_ACTOR_LENGTH);
  }
  return `api-key:${principal.name}`;
}

/**
 * Records one change made through a write endpoint in the audit log, the one call a write route
 * makes after its write succeeded.
 */
export function recordChange(
  c: Context,
  backend: UsageStore,
  principal: Principal,
  change: Omit<AuditChange, 'actor'>,
): Promise<AuditEntry> {
  const actor = actorOf(c.req.header('x-console-actor'), principal);
  return backend.audit.record({ ...change, actor });
}
