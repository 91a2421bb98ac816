/**
 * Who may do what in the console. One table, read by the console proxy (which refuses a
 * forbidden request with 403) and by the SPA (which does not offer a control the role may not
 * use). Viewers read usage, export it and run the playground; only admins change settings.
 */
export const CONSOLE_ROLES = ['viewer', 'admin'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

export const CONSOLE_ACTIONS = [
  'usage:read',
  'usage:export',
  'playground:run',
  'limits:change',
  'prices:change',
  'plans:change',
  /** Any other change made through the console: admins only until a row says otherwise. */
  'settings:change',
] as const;
export type ConsoleAction = (typeof CONSOLE_ACTIONS)[number];

const VIEWER_ACTIONS: readonly ConsoleAction[] = ['usage:read', 'usage:export', 'playground:run'];

export const ROLE_ACTIONS: Readonly<Record<ConsoleRole, readonly ConsoleAction[]>> = {
  viewer: VIEWER_ACTIONS,
  admin: CONSOLE_ACTIONS,
};

/** Whether `role` may do `action`; no role (the console signs no one in) may do everything. */
export function roleMay(role: ConsoleRole | null, action: ConsoleAction): boolean {
  return role === null || ROLE_ACTIONS[role].includes(action);
}

export function isConsoleRole(value: string): value is ConsoleRole {
  return (CONSOLE_ROLES as readonly string[]).includes(value);
}
