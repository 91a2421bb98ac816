import type { ConsoleAction } from '@contracts/console-roles';

/** One request shape the console proxy forwards: a method and a Hono path pattern. */
export interface ConsoleRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /**
   * What the request does, in the role table's words (`contracts/console-roles.ts`). Unset: its
   * area's action (the playground's), else a read is `usage:read`, anything else
   * `settings:change` (admins only).
   */
  action?: ConsoleAction;
}

/** The role-table action a console route needs; `areaAction` speaks for a whole area. */
export function routeAction(route: ConsoleRoute, areaAction?: ConsoleAction): ConsoleAction {
  return route.action ?? areaAction ?? (route.method === 'GET' ? 'usage:read' : 'settings:change');
}

/**
 * What the usage tab calls (src/features/usage/api). Everything else, writes above all, is
 * refused with a 404 before it reaches the upstream with the server's key.
 */
export const USAGE_CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  { method: 'GET', path: '/workspaces' },
  { method: 'GET', path: '/orgs/current/billing/granular-usage' },
  { method: 'GET', path: '/orgs/current/billing/granular-usage/export', action: 'usage:export' },
  // Usage limits: the tab's card reads the status and log, edits or removes a workspace's limit
  // and sets the org default.
  { method: 'GET', path: '/usage-limits/org/status' },
  { method: 'GET', path: '/usage-limits/org/deliveries' },
  { method: 'GET', path: '/usage-limits/org' },
  { method: 'GET', path: '/usage-limits/refusals' },
  { method: 'PUT', path: '/usage-limits', action: 'limits:change' },
  { method: 'DELETE', path: '/usage-limits/:id', action: 'limits:change' },
  { method: 'GET', path: '/usage-limits/org/default' },
  { method: 'PUT', path: '/usage-limits/org/default', action: 'limits:change' },
  // Invoices: a month's invoice, the plan, and an admin's change of it.
  { method: 'GET', path: '/orgs/current/billing/invoices' },
  { method: 'GET', path: '/orgs/current/billing/plan' },
  { method: 'PUT', path: '/orgs/current/billing/plan', action: 'plans:change' },
  // The LLM tab's model price map: read by all, changed by admins.
  { method: 'GET', path: '/model-price-map' },
  { method: 'POST', path: '/model-price-map', action: 'prices:change' },
  { method: 'PUT', path: '/model-price-map/:id', action: 'prices:change' },
  { method: 'DELETE', path: '/model-price-map/:id', action: 'prices:change' },
  // Admins only (organization:manage, checked again by the usage service): keys and the audit log.
  { method: 'GET', path: '/api-key', action: 'settings:change' },
  { method: 'POST', path: '/api-key', action: 'settings:change' },
  { method: 'DELETE', path: '/api-key/:id', action: 'settings:change' },
  { method: 'GET', path: '/orgs/current/audit-log', action: 'settings:change' },
  { method: 'GET', path: '/orgs/current/audit-log/export', action: 'settings:change' },
];

/**
 * What the rollback playground calls through the SDK (src/features/playground/api): threads,
 * runs, join, cancel, state, and the streaming variants the SDK offers for them.
 */
export const DEPLOYMENT_CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  { method: 'GET', path: '/info' },
  { method: 'GET', path: '/ok' },
  { method: 'POST', path: '/threads' },
  { method: 'GET', path: '/threads/:threadId' },
  { method: 'GET', path: '/threads/:threadId/state' },
  { method: 'GET', path: '/threads/:threadId/runs' },
  { method: 'POST', path: '/threads/:threadId/runs' },
  { method: 'POST', path: '/threads/:threadId/runs/wait' },
  { method: 'POST', path: '/threads/:threadId/runs/stream' },
  { method: 'GET', path: '/threads/:threadId/runs/:runId' },
  { method: 'GET', path: '/threads/:threadId/runs/:runId/join' },
  { method: 'GET', path: '/threads/:threadId/runs/:runId/stream' },
  { method: 'POST', path: '/threads/:threadId/runs/:runId/cancel' },
];
