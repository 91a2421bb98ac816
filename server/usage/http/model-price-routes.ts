import { Hono, type Context } from 'hono';
import { modelPriceBodySchema } from '@contracts/usage/model-price-body';
import { jsonError } from '@server/http/json-error';
import { DEFAULT_MODEL_PRICES } from '../model/default-model-prices';
import { ModelPriceConflictError } from '../model/model-price-entry';
import type { UsageStore } from '../store/usage-store';
import { authorizeLimits, limitWorkspace, parseBody } from './limit-request';
import { recordChange } from './record-change';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * LangSmith's model price map API, relative to `/api/v1`, for the workspace of `X-Tenant-Id`:
 * `GET /model-price-map` lists the defaults (`tenant_id` null, read-only) and the workspace's own
 * entries; `POST`, `PUT /{id}` and `DELETE /{id}` change its own, with the permission that
 * changes usage limits (admins). A change prices runs ingested after it; costs already recorded
 * stay. Each handler: authorise -> validate -> one store call -> respond.
 */
export function createModelPriceRoutes(backend: UsageStore): Hono {
  const app = new Hono();
  const prices = backend.llm.prices;

  const writeTarget = async (c: Context) => {
    const auth = await authorizeLimits(c, backend, 'write');
    if ('response' in auth) return auth;
    const target = await limitWorkspace(c, backend, auth.principal, 'write');
    if ('response' in target) return target;
    return { ...target, principal: auth.principal };
  };
  const ownEntry = async (workspaceId: string, id: string) =>
    (await prices.list(workspaceId)).find((entry) => entry.id === id) ?? null;
  const entryId = (c: Context) => {
    const id = c.req.param('id')?.toLowerCase() ?? '';
    return UUID.test(id) ? id : undefined;
  };
  const invalidId = (c: Context) =>
    jsonError(c, 422, [
      { loc: ['path', 'id'], msg: 'Input should be a valid UUID', type: 'uuid_parsing' },
    ]);
  const conflict = (c: Context, error: unknown) => {
    if (error instanceof ModelPriceConflictError) return jsonError(c, 409, error.message);
    throw error;
  };

  app.get('/model-price-map', async (c) => {
    const auth = await authorizeLimits(c, backend, 'read');
    if ('response' in auth) return auth.response;
    const target = await limitWorkspace(c, backend, auth.principal, 'read');
    if ('response' in target) return target.response;
    const own = await prices.list(target.workspaceId);
    const all = [...own, ...DEFAULT_MODEL_PRICES];
    c.header('X-Pagination-Total', String(all.length));
    return c.json(all);
  });

  app.post('/model-price-map', async (c) => {
    const target = await writeTarget(c);
    if ('response' in target) return target.response;
    const parsed = await parseBody(c, modelPriceBodySchema);
    if ('response' in parsed) return parsed.response;
    try {
      const entry = await prices.create(target.workspaceId, parsed.body);
      await recordChange(c, backend, target.principal, {
        action: 'model_price.create',
        target: entry.name,
        before: null,
        after: entry,
      });
      return c.json(entry);
    } catch (error) {
      return conflict(c, error);
    }
  });

  app.put('/model-price-map/:id', async (c) => {
    const target = await writeTarget(c);
    if ('response' in target) return target.response;
    const id = entryId(c);
    if (!id) return invalidId(c);
    const parsed = await parseBody(c, modelPriceBodySchema);
    if ('response' in parsed) return parsed.response;
    try {
      const before = await ownEntry(target.workspaceId, id);
      const entry = await prices.replace(target.workspaceId, id, parsed.body);
      if (!entry) return jsonError(c, 404, `Model price ${id} not found.`);
      await recordChange(c, backend, target.principal, {
        action: 'model_price.set',
        target: entry.name,
        before,
        after: entry,
      });
      return c.json(entry);
    } catch (error) {
      return conflict(c, error);
    }
  });

  app.delete('/model-price-map/:id', async (c) => {
    const target = await writeTarget(c);
    if ('response' in target) return target.response;
    const id = entryId(c);
    if (!id) return invalidId(c);
    const before = await ownEntry(target.workspaceId, id);
    if (!before || !(await prices.remove(target.workspaceId, id))) {
      return jsonError(c, 404, `Model price ${id} not found.`);
    }
    await recordChange(c, backend, target.principal, {
      action: 'model_price.remove',
      target: before.name,
      before,
      after: null,
    });
    return c.body(null, 204);
  });

  return app;
}
