/** One request shape the console proxy forwards: a method and a Hono path pattern. */
export interface ConsoleRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
}

/**
 * What the usage tab calls (src/features/usage/api). Everything else, writes above all, is
 * refused with a 404 before it reaches the upstream with the server's key.
 */
export const USAGE_CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  { method: 'GET', path: '/workspaces' },
  { method: 'GET', path: '/orgs/current/billing/granular-usage' },
  { method: 'GET', path: '/orgs/current/billing/granular-usage/export' },
  // Usage limits: the tab's card reads the status and log, edits or removes a workspace's limit
  // and sets the org default.
  { method: 'GET', path: '/usage-limits/org/status' },
  { method: 'GET', path: '/usage-limits/org/deliveries' },
  { method: 'GET', path: '/usage-limits/refusals' },
  { method: 'PUT', path: '/usage-limits' },
  { method: 'DELETE', path: '/usage-limits/:id' },
  { method: 'GET', path: '/usage-limits/org/default' },
  { method: 'PUT', path: '/usage-limits/org/default' },
  // Admins only (organization:manage, checked by the usage service): keys and the audit log.
  { method: 'GET', path: '/api-key' },
  { method: 'POST', path: '/api-key' },
  { method: 'DELETE', path: '/api-key/:id' },
  { method: 'GET', path: '/orgs/current/audit-log' },
  { method: 'GET', path: '/orgs/current/audit-log/export' },
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
