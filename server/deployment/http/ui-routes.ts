import path from 'node:path';
import { Hono } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { z } from 'zod';
import { jsonError } from '@server/http/json-error';
import type { GraphUi } from '../graph/graph-ui';
import { parseJsonBody } from '../wire/request';

const componentBody = z.object({ name: z.string() });

/** `protocol` of the asset URLs, as the official server writes them (protocol-relative else). */
function protocolFor(host: string): string {
  const isHost = (name: string) => host === name || host.startsWith(`${name}:`);
  return isHost('localhost') || isHost('127.0.0.1') ? 'http:' : '';
}

/**
 * Generative UI of langgraph.json's `ui`, as the official server serves it (its
 * `src/ui/load.mts`): `POST /ui/{name}` `{name: component}` answers the HTML that loads the
 * bundle (`<link>` per CSS file, one `<script>` whose onload renders the component), and
 * `GET /ui/{name}/{file}` the bundle's files. The SDK's `client["~ui"].getComponent` and
 * `LoadExternalComponent` call them. Asset URLs keep the API's mount path (`/deployment`).
 */
export function createUiRoutes(ui: GraphUi) {
  const app = new Hono();

  app.post('/:agent', async (c) => {
    const agent = c.req.param('agent');
    const body = await parseJsonBody(c, componentBody);
    if (!body.ok) return jsonError(c, 422, body.detail);
    const files = ui.get(agent);
    if (!files?.length) return jsonError(c, 404, `UI not found for agent "${agent}"`);
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    const mount = c.req.path.slice(0, c.req.path.length - `/ui/${agent}`.length);
    const base = `${protocolFor(host)}//${host}${mount}/ui/${agent}`;
    const stableName = agent.replace(/[^a-zA-Z0-9]/g, '_');
    const html = [
      ...files
        .filter((file) => path.extname(file.basename) === '.css')
        .map((css) => `<link rel="stylesheet" href="${base}/${css.basename}" />`),
      ...files
        .filter((file) => path.extname(file.basename) === '.js')
        .slice(0, 1)
        .map(
          (js) =>
            `<script src="${base}/${js.basename}" onload='__LGUI_${stableName}.render(${JSON.stringify(body.data.name)}, "{{shadowRootId}}")'></script>`,
        ),
    ];
    return c.text(html.join('\n'), 200, { 'Content-Type': 'text/html' });
  });

  app.get('/:agent/:basename', (c) => {
    const { agent, basename } = c.req.param();
    const file = ui.get(agent)?.find((item) => item.basename === basename);
    if (!file) return jsonError(c, 404, `File ${basename} not found in the UI of "${agent}"`);
    return c.body(new Uint8Array(file.contents), 200, {
      'Content-Type': getMimeType(file.basename) ?? 'text/plain',
    });
  });

  return app;
}
