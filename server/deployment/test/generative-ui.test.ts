import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDataDir, startTestDeployment, type TestDeployment } from './test-deployment';

const CONFIG = path.join(import.meta.dirname, 'fixtures/graphs/ui.json');

describe('langgraph.json ui (generative UI), as the official server serves it', () => {
  let deployment: TestDeployment;
  beforeAll(async () => {
    deployment = await startTestDeployment({ stepMs: 0, langgraphConfig: CONFIG });
  }, 60_000);
  afterAll(async () => {
    await deployment.stop();
    await removeDataDir(deployment.dataDir);
  });

  it('answers the SDK the HTML that loads the bundle and renders the component', async () => {
    const html = await deployment.client['~ui'].getComponent('echo', 'echo-card');
    expect(html).toContain(
      `<script src="${deployment.url}/ui/echo/entrypoint.js" onload='__LGUI_echo.render("echo-card", "{{shadowRootId}}")'></script>`,
    );
    const src = /src="(?<src>[^"]+)"/.exec(html)?.groups?.src ?? '';
    const js = await fetch(src);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    // The bundle takes React and the SDK from the page, through the official loader's hook.
    expect(await js.text()).toContain('globalThis[Symbol.for("LGUI_REQUIRE")]');
  });

  it('answers 404 for a name without a ui and for a file the bundle lacks', async () => {
    const unknown = await fetch(`${deployment.url}/ui/nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(unknown.status).toBe(404);
    // Plain text, as every 404 of a served langgraph.json (the official CLI's wording).
    expect(await unknown.text()).toBe('UI not found for agent "nope"');
    const missing = await fetch(`${deployment.url}/ui/echo/nope.js`);
    expect(missing.status).toBe(404);
  });

  it('answers 422 to a body without a component name', async () => {
    const response = await fetch(`${deployment.url}/ui/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ component: 'x' }),
    });
    expect(response.status).toBe(422);
  });
});
