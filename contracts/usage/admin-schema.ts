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
export const apiKeyInfoSchema = z.object({
  id: z.string(),
  /** Prefix and last four characters: `lsv2_...abcd`. */
  short_key: z.string(),
  description: z.string(),
  role: z.enum(API_KEY_ROLES),
  /** LangSmith's flag: a viewer key reads only. */
  read_only: z.boolean(),
  /** ISO 8601, UTC. */
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyInfo = z.infer<typeof apiKeyInfoSchema>;
export const apiKeyListSchema = z.array(apiKeyInfoSchema);

/** `POST /api/v1/api-key`'s answer: the only time the key is shown. */
export const createdApiKeySchema = apiKeyInfoSchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** One change made through the usage API's write endpoints. */
export const auditLogEntrySchema = z.object({
  id: z.string(),
  /** ISO 8601, UTC. */
  at: z.string(),
  /** The console's signed-in user (e-mail), else `api-key:<name>`. */
  actor: z.string(),
  /** `<thing>.<verb>`, e.g. `usage_limit.set`. */
  action: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

/** `GET /api/v1/orgs/current/audit-log`: a page, newest first. */
export const auditLogPageSchema = z.object({
  entries: z.array(auditLogEntrySchema),
  total: z.number(),
  offset: z.number(),
  limit: z.number(),
});
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;

/** The columns of `GET /api/v1/orgs/current/audit-log/export`; before/after as JSON text. */
export const AUDIT_CSV_COLUMNS = ['at', 'actor', 'action', 'target', 'before', 'after'] as const;
