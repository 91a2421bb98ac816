import { afterAll, expect, it } from 'vitest';
import { readyUrl, removeServerDataDirs, startServerProcess } from './server-process';

afterAll(removeServerDataDirs);

const json = (body: unknown, key?: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(key && { 'x-api-key': key }) },
  body: JSON.stringify(body),
});

it("checks langsmith keys against the embedded usage service's keys, and the console keeps working", async () => {
  const server = await startServerProcess({ LANGGRAPH_AUTH_TYPE: 'langsmith', USAGE_SEED: 'demo' });
  try {
    const url = await readyUrl(server);
    const deployment = `${url}deployment`;
    expect((await fetch(`${deployment}/threads`, json({}))).status).toBe(401);
    expect((await fetch(`${deployment}/threads`, json({}, 'lsv2_not_a_key'))).status).toBe(401);

    const created = await fetch(`${deployment}/threads`, json({}, 'lsv2_demo_admin'));
    expect(created.status).toBe(200);
    const { thread_id } = (await created.json()) as { thread_id: string };

    // The read-only demo key reads its workspace but starts no run.
    const run = { assistant_id: 'agent', input: { messages: [{ role: 'user', content: 'hi' }] } };
    const refused = await fetch(
      `${deployment}/threads/${thread_id}/runs`,
      json(run, 'lsv2_demo_limited'),
    );
    expect(refused.status).toBe(403);

    // The console acts with the server's usage key: the playground creates threads without one.
    const fromPage = json({});
    const viaConsole = await fetch(`${url}_console/deployment/threads`, {
      ...fromPage,
      headers: { ...fromPage.headers, origin: new URL(url).origin },
    });
    expect(viaConsole.status).toBe(200);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});
