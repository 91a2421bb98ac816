import { z } from 'zod';

/** The roles an API key can be made with (server: `server/usage/store/key-roles.ts`). */
export const API_KEY_ROLES = ['viewer', 'writer', 'admin'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

/** `POST /api/v1/api-key`: LangSmith's `APIKeyCreateRequest`, with a role. */
export const createApiKeyBodySchema = z.object({
  description: z
    .string({ message: 'Input should be a valid string' })
    .trim()
    .min(1, { message: 'String should have at least 1 character' })
    .max(200, { message: 'String should have at most 200 characters' }),
  role: z
    .enum(API_KEY_ROLES, { message: "Input should be 'viewer', 'writer' or 'admin'" })
    .default('viewer'),
});

/** A key as `GET /api/v1/api-key` lists it: never the key itself. */
export interface ApiKeyInfo {
  id: string;
  /** Prefix and last four characters: `lsv2_...abcd`. */
  short_key: string;
  description: string;
  role: ApiKeyRole;
  /** LangSmith's flag: a viewer key reads only. */
  read_only: boolean;
  /** ISO 8601, UTC. */
  created_at: string;
  revoked_at: string | null;
}

/** `POST /api/v1/api-key`'s answer: the only time the key is shown. */
export interface CreatedApiKey extends ApiKeyInfo {
  key: string;
}

/** One change made through the usage API's write endpoints. */
export interface AuditLogEntry {
  id: string;
  /** ISO 8601, UTC. */
  at: string;
  /** The console's signed-in user (e-mail), else `api-key:<name>`. */
  actor: string;
  /** `<thing>.<verb>`, e.g. `usage_limit.set`. */
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/** `GET /api/v1/orgs/current/audit-log`: a page, newest first. */
export interface AuditLogPage {
  entries: AuditLogEntry[];
  total: number;
  offset: number;
  limit: number;
}

/** The columns of `GET /api/v1/orgs/current/audit-log/export`; before/after as JSON text. */
export const AUDIT_CSV_COLUMNS = ['at', 'actor', 'action', 'target', 'before', 'after'] as const;
