import { demoKeyOwner } from '@server/usage/seed/demo-key-owners';
import { DEMO_KEY_GRANTS, RUNS_CREATE_PERMISSION } from '@server/usage/seed/demo-keys';

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * SQL giving every demo key present in `auth_keys` its owner user, its API key row (in the first
 * workspace it reads, by creation order) and, for writers, the `runs:create` permission. Skips
 * keys that already have an owner, so it serves both the seed (fresh tables) and migration 5
 * (a store seeded before ingestion existed).
 */
export function demoKeyOwnersSql(): string {
  return DEMO_KEY_GRANTS.map((grant) => {
    const owner = demoKeyOwner(grant);
    const hash = quote(owner.keyHash);
    const homeWorkspace = `(SELECT g.workspace_id FROM auth_key_workspaces g
      JOIN workspaces w ON w.id = g.workspace_id WHERE g.key_hash = ${hash}
      ORDER BY w.created_at, w.display_name, w.id LIMIT 1)`;
    const pending = `EXISTS (SELECT 1 FROM auth_keys WHERE key_hash = ${hash})
      AND NOT EXISTS (SELECT 1 FROM auth_key_owners WHERE key_hash = ${hash})
      AND ${homeWorkspace} IS NOT NULL`;
    const grantWrite = grant.permissions.includes(RUNS_CREATE_PERMISSION)
      ? `UPDATE auth_keys SET permissions = list_append(permissions, ${quote(RUNS_CREATE_PERMISSION)})
         WHERE key_hash = ${hash} AND NOT list_contains(permissions, ${quote(RUNS_CREATE_PERMISSION)});`
      : '';
    return `
      INSERT INTO users SELECT ${quote(owner.userId)}::UUID, ${quote(grant.ownerEmail)} WHERE ${pending};
      INSERT INTO api_keys SELECT ${quote(owner.apiKeyId)}::UUID, ${homeWorkspace},
        ${quote(owner.shortKey)}, ${quote(grant.label)} WHERE ${pending};
      INSERT INTO auth_key_owners SELECT ${hash}, ${quote(owner.userId)}::UUID,
        ${quote(owner.apiKeyId)}::UUID WHERE ${pending};
      ${grantWrite}`;
  }).join('\n');
}
