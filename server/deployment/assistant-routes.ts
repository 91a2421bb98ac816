import { Hono } from 'hono';
import { jsonError } from '../http/json-error';
import type { DeploymentDeps } from './deployment-deps';
import { parseJsonBody, searchAssistantsBody } from './wire/request';

/** The assistant endpoints the SDK uses to resolve a graph: get and search. */
export function createAssistantRoutes({ assistants }: DeploymentDeps) {
  const app = new Hono();

  app.post('/search', async (c) => {
    const body = await parseJsonBody(c, searchAssistantsBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const { graph_id, name, limit, offset } = body.data;
    const matches = assistants
      .all()
      .filter((a) => (!graph_id || a.graph_id === graph_id) && (!name || a.name === name));
    return c.json(matches.slice(offset, offset + limit));
  });

  app.get('/:assistantId', (c) => {
    const assistant = assistants.resolve(c.req.param('assistantId'));
    if (!assistant) return jsonError(c, 404, `Assistant ${c.req.param('assistantId')} not found`);
    return c.json(assistant);
  });

  return app;
}
