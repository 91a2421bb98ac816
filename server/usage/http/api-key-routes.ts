import { randomBytes, randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import {
  createApiKeyBodySchema,
  type ApiKeyInfo,
  type CreatedApiKey,
} from '@contracts/usage/admin-schema';
import { jsonError } from '@server/http/json-error';
import type { ApiKeySummary, UsageStore } from '../store/usage-store';
import { authorizeAdmin } from './authorize-admin';
import { parseBody } from './limit-request';
import { recordChange } from './record-change';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const wire = (key: ApiKeySummary): ApiKeyInfo => ({ ...key, read_only: key.role === 'viewer' });

/** What the audit log keeps of a key: its list row, never the key. */
const audited = (key: ApiKeyInfo) => ({
  short_key: key.short_key,
  description: key.description,
  role: key.role,
  revoked: key.revoked_at !== null,
});

/** A new key: LangSmith's `lsv2_` prefix and 192 random bits. */
export const generateApiKey = () => `lsv2_${randomBytes(24).toString('hex')}`;

/**
 * LangSmith's API-key endpoints, relative to `/api/v1`, for organisation admins
 * (organization:manage): create (the answer is the only time the key is shown), list (never the
 * key), revoke (the key authenticates nothing from then on). Each change is audited.
 */
export function createApiKeyRoutes(backend: UsageStore): Hono {
  const app = new Hono();

  app.get('/api-key', async (c) => {
    const auth = await authorizeAdmin(c, backend);
    if ('response' in auth) return auth.response;
    return c.json((await backend.keys.list()).map(wire));
  });

  app.post('/api-key', async (c) => {
    const auth = await authorizeAdmin(c, backend);
    if ('response' in auth) return auth.response;
    const parsed = await parseBody(c, createApiKeyBodySchema);
    if ('response' in parsed) return parsed.response;
    const { description, role } = parsed.body;
    const id = randomUUID();
    const key = generateApiKey();
    await backend.catalog.createApiKey({ id, key, label: description, role, workspaceIds: [] });
    const made = (await backend.keys.list()).find((candidate) => candidate.id === id);
    if (!made) throw new Error(`API key ${id} was not stored`);
    const info = wire(made);
    await recordChange(c, backend, auth.principal, {
      action: 'api_key.create',
      target: id,
      before: null,
      after: audited(info),
    });
    const created: CreatedApiKey = { ...info, key };
    return c.json(created);
  });

  app.delete('/api-key/:id{[^/]+}', async (c) => {
    const auth = await authorizeAdmin(c, backend);
    if ('response' in auth) return auth.response;
    const id = c.req.param('id').toLowerCase();
    if (!UUID.test(id)) {
      return jsonError(c, 422, [
        { loc: ['path', 'api_key_id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' },
      ]);
    }
    const before = await backend.keys.revoke(id, new Date());
    if (!before) return jsonError(c, 404, `API key ${id} not found.`);
    const after = (await backend.keys.list()).find((candidate) => candidate.id === id) ?? before;
    if (before.revoked_at === null) {
      await recordChange(c, backend, auth.principal, {
        action: 'api_key.revoke',
        target: id,
        before: audited(wire(before)),
        after: audited(wire(after)),
      });
    }
    return c.json(wire(after));
  });

  return app;
}
