import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from './fixtures/auth/jwt-auth.mjs';
import { removeDataDir, startTestDeployment, type TestDeployment } from './test-deployment';

const LANGGRAPH_JSON = path.resolve(import.meta.dirname, 'fixtures/auth/langgraph-in-process.json');
const FULL = ['me', 'read', 'write', 'assistants:write'];

let deployment: TestDeployment;
beforeAll(async () => {
  deployment = await startTestDeployment({ stepMs: 0, langgraphConfig: LANGGRAPH_JSON });
});
afterAll(async () => {
  await deployment.stop();
  await removeDataDir(deployment.dataDir);
});

const bearer = (user: string) => ({ authorization: `Bearer ${tokenFor(user, FULL)}` });
const clientAs = (user: string) =>
  new Client({
    apiUrl: deployment.url,
    defaultHeaders: bearer(user),
    callerOptions: { maxRetries: 0 },
  });

describe("a custom route's new Client() (in-process)", () => {
  it("acts for the route's caller: what it creates is theirs, hidden from others", async () => {
    const response = await fetch(`${deployment.url}/custom/threads`, {
      method: 'POST',
      headers: bearer('johndoe'),
    });
    expect(response.status).toBe(200);
    const thread = (await response.json()) as { thread_id: string; metadata: unknown };
    expect(thread.metadata).toMatchObject({ owner: 'johndoe', via: 'route' });

    const john = await clientAs('johndoe').threads.get(thread.thread_id);
    expect(john.metadata).toMatchObject({ owner: 'johndoe' });
    await expect(clientAs('alice').threads.get(thread.thread_id)).rejects.toThrow(/HTTP 404/);
  });

  it('starts runs that carry the caller (langgraph_auth_user)', async () => {
    const asJohn = await fetch(`${deployment.url}/custom/whoami`, { headers: bearer('johndoe') });
    expect(asJohn.status).toBe(200);
    expect(await asJohn.json()).toMatchObject({ user: 'johndoe/johndoe' });
    const asAlice = await fetch(`${deployment.url}/custom/whoami`, { headers: bearer('alice') });
    expect(await asAlice.json()).toMatchObject({ user: 'alice/alice' });
  });

  it('is never reached without credentials: the door answers 401', async () => {
    const response = await fetch(`${deployment.url}/custom/whoami`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'Could not validate credentials' });
  });
});

it("a run's graph does not act for the request that started it: its new Client() sends no credentials", async () => {
  await clientAs('johndoe').threads.create();
  const values = await clientAs('johndoe').runs.wait(null, 'search_in_process', {
    input: { asked: 'threads?' },
  });
  expect(values).toMatchObject({ user: expect.stringMatching(/^HTTP 401/) as unknown });
});
