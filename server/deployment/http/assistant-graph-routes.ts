import { type Context, Hono } from 'hono';
import { jsonError } from '@server/http/json-error';
import type { DeploymentDeps } from '../use-cases/deployment-deps';
import type { ServedGraph } from '../graph/graph-registry';
import { toWireSchemas } from '../graph/graph-schemas';
import { recurseQuery, xrayQuery } from '../wire/assistant-requests';
import { parseWith } from '../wire/request';

/** What an assistant's graph looks like: drawing, JSON schemas, subgraphs. */
export function createAssistantGraphRoutes({ assistants, graphs }: DeploymentDeps) {
  const app = new Hono();

  /** The assistant's graph, built from the assistant's config when it comes from a factory. */
  async function graphOf(c: Context): Promise<ServedGraph | Response> {
    const assistant = await assistants.get(c.req.param('assistantId') ?? '');
    if (!assistant) return jsonError(c, 404, 'Assistant not found');
    const served = graphs.get(assistant.graph_id);
    if (!served) return jsonError(c, 404, `Graph "${assistant.graph_id}" not found`);
    return graphs.withConfig(served, assistant.config);
  }

  app.get('/graph', async (c) => {
    const query = parseWith(xrayQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    const served = await graphOf(c);
    if (served instanceof Response) return served;
    const drawable = await served.runtime.getGraphAsync({ xray: query.data.xray });
    return c.json(drawable.toJSON());
  });

  app.get('/schemas', async (c) => {
    const served = await graphOf(c);
    if (served instanceof Response) return served;
    const schemas = served.schemasOf
      ? toWireSchemas(await served.schemasOf(served.runtime))
      : served.schemas;
    return c.json({ graph_id: served.graphId, ...schemas });
  });

  async function subgraphs(c: Context, namespace: string | undefined) {
    const query = parseWith(recurseQuery, c.req.query());
    if (!query.ok) return jsonError(c, 422, query.detail);
    const served = await graphOf(c);
    if (served instanceof Response) return served;
    const found: Record<string, unknown> = {};
    // A loaded graph's subgraph is listed with its own schemas as the official JS server lists
    // them (`{state, input, output, config}`); the demo graph has no subgraphs.
    for await (const [ns, graph] of served.runtime.getSubgraphsAsync(
      namespace,
      query.data.recurse,
    )) {
      found[ns] = served.schemasOf ? await served.schemasOf(graph, ns) : served.schemas;
    }
    return c.json(found);
  }

  app.get('/subgraphs', (c) => subgraphs(c, undefined));
  app.get('/subgraphs/:namespace', (c) => subgraphs(c, c.req.param('namespace')));

  return app;
}
