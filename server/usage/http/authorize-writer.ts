import type { Context } from 'hono';
import { z } from 'zod';
import { jsonError } from '@server/http/json-error';
import { RUNS_CREATE_PERMISSION } from '../seed/demo-keys';
import { hashApiKey } from '../store/api-key-hash';
import type { UsageStore } from '../store/usage-store';
import { authenticate } from './authenticate';

/** Where an authorised ingestion request bills its traces. */
export interface IngestTarget {
  workspaceId: string;
  /** Its display name, for messages (a usage limit's 429). */
  workspaceName: string;
  userId: string | null;
  apiKeyId: string | null;
}

const uuid = z.uuid();

/**
 * Authenticates `x-api-key` (401), requires `runs:create` (403), and picks the workspace:
 * `X-Tenant-Id` when sent (it must be one the key can write to), else the key's own workspace.
 * The user and API key dimensions are the key's owner and the key itself.
 */
export async function authorizeWriter(
  c: Context,
  backend: UsageStore,
): Promise<{ target: IngestTarget } | { response: Response }> {
  const auth = await authenticate(c, backend);
  if ('response' in auth) return auth;
  const { principal } = auth;
  if (!principal.permissions.includes(RUNS_CREATE_PERMISSION)) {
    return {
      response: jsonError(c, 403, `This API key lacks the ${RUNS_CREATE_PERMISSION} permission.`),
    };
  }
  const apiKey = c.req.header('x-api-key')?.trim() ?? '';
  const owner = await backend.keys.writerForKey(hashApiKey(apiKey));
  const tenant = c.req.header('x-tenant-id')?.trim();
  const singleWorkspace = principal.workspaces.length === 1 ? principal.workspaces[0]?.id : null;
  const workspaceId = tenant || owner.homeWorkspaceId || singleWorkspace;
  if (!workspaceId) {
    return {
      response: jsonError(c, 403, 'Send X-Tenant-Id: this API key writes to no default workspace.'),
    };
  }
  if (!uuid.safeParse(workspaceId).success) {
    return {
      response: c.json(
        {
          detail: [
            {
              loc: ['header', 'x-tenant-id'],
              msg: 'Input should be a valid UUID',
              type: 'uuid_parsing',
              input: workspaceId,
            },
          ],
        },
        422,
      ),
    };
  }
  const workspace = principal.workspaces.find((candidate) => candidate.id === workspaceId);
  if (!workspace || workspace.read_only) {
    return {
      response: jsonError(c, 403, `This API key cannot write to workspace ${workspaceId}.`),
    };
  }
  return {
    target: {
      workspaceId,
      workspaceName: workspace.display_name,
      userId: owner.userId,
      apiKeyId: owner.apiKeyId,
    },
  };
}
