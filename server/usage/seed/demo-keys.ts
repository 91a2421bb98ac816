/**
 * Demo-only credentials of the usage API, created with every seeded dataset. They are public
 * (printed at start, listed in the README): never use a seeded database for real data.
 */
export const DEMO_API_KEYS = {
  admin: 'lsv2_demo_admin',
  limited: 'lsv2_demo_limited',
  noperm: 'lsv2_demo_noperm',
} as const;

export interface DemoKeyGrant {
  key: string;
  label: string;
  permissions: string[];
  /** Indexes of the workspaces the key can read; `'all'` for every workspace. */
  workspaces: number[] | 'all';
  roleName: string;
  readOnly: boolean;
  /** E-mail of the user who owns the key: ingested traces are billed to this user. */
  ownerEmail: string;
}

/** The permission `POST /runs/*` requires (LangSmith's name for creating runs). */
export const RUNS_CREATE_PERMISSION = 'runs:create';

/** The permission changing usage limits and their org default requires (reading needs organization:read). */
export const USAGE_LIMITS_MANAGE_PERMISSION = 'usage-limits:manage';

/**
 * The organisation admin's permission (LangSmith's name): managing API keys, reading the audit
 * log, and naming the console's signed-in user as the actor of a change (`X-Console-Actor`).
 */
export const ORGANIZATION_MANAGE_PERMISSION = 'organization:manage';

export const DEMO_KEY_GRANTS: readonly DemoKeyGrant[] = [
  {
    key: DEMO_API_KEYS.admin,
    label: 'demo admin',
    permissions: [
      'organization:read',
      'workspaces:read',
      RUNS_CREATE_PERMISSION,
      USAGE_LIMITS_MANAGE_PERMISSION,
      ORGANIZATION_MANAGE_PERMISSION,
    ],
    workspaces: 'all',
    roleName: 'WORKSPACE_ADMIN',
    readOnly: false,
    ownerEmail: 'demo-admin@example.com',
  },
  {
    key: DEMO_API_KEYS.limited,
    label: 'demo limited',
    permissions: ['organization:read', 'workspaces:read'],
    workspaces: [0, 1],
    roleName: 'WORKSPACE_VIEWER',
    readOnly: true,
    ownerEmail: 'demo-limited@example.com',
  },
  {
    key: DEMO_API_KEYS.noperm,
    label: 'demo without organization:read',
    permissions: ['workspaces:read'],
    workspaces: [0],
    roleName: 'WORKSPACE_VIEWER',
    readOnly: true,
    ownerEmail: 'demo-noperm@example.com',
  },
];

export function describeDemoKeys(): string {
  return [
    'Usage API demo keys (demo data only, header x-api-key):',
    `  ${DEMO_API_KEYS.admin}    organization:read, runs:create (traces), usage-limits:manage and organization:manage (API keys, audit log), all workspaces`,
    `  ${DEMO_API_KEYS.limited}  organization:read, 2 workspaces`,
    `  ${DEMO_API_KEYS.noperm}   no organization:read (usage endpoints answer 403), no runs:create`,
  ].join('\n');
}
