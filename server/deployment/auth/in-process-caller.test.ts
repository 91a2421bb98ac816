import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AuthUser } from './auth-types';
import { inProcessFetch, serveFor, takeInProcessCaller } from './in-process-caller';

const JOHN: AuthUser = {
  identity: 'johndoe',
  display_name: 'John',
  is_authenticated: true,
  permissions: ['read'],
};

/** An app whose routes report whom the door would take the request for (twice, and nested). */
function reportingApp() {
  const app = new Hono();
  app.get('/who', (c) => {
    const first = takeInProcessCaller()?.identity ?? null;
    const again = takeInProcessCaller()?.identity ?? null;
    return c.json({ first, again });
  });
  // A request the route sends by other means than the SDK (as a webhook's loopback does).
  app.get('/nested', async (c) => {
    takeInProcessCaller();
    return c.json(await (await app.fetch(new Request('http://localhost/who'))).json());
  });
  return app;
}

describe('inProcessFetch', () => {
  it('carries the caller being served to the door, once (a second take gets no one)', async () => {
    const app = reportingApp();
    const response = await serveFor(JOHN, () => inProcessFetch(app)('http://localhost/who'));
    expect(await response.json()).toEqual({ first: 'johndoe', again: null });
  });

  it('carries no one when no caller is being served', async () => {
    const app = reportingApp();
    expect(await (await inProcessFetch(app)('http://localhost/who')).json()).toEqual({
      first: null,
      again: null,
    });
    const detached = await serveFor(JOHN, () =>
      serveFor(undefined, () => inProcessFetch(app)('http://localhost/who')),
    );
    expect(await detached.json()).toEqual({ first: null, again: null });
  });

  it('is not inherited by a request the route sends by other means', async () => {
    const app = reportingApp();
    const response = await serveFor(JOHN, () => inProcessFetch(app)('http://localhost/nested'));
    expect(await response.json()).toEqual({ first: null, again: null });
  });

  it('never lets a request that did not come through it take a caller', async () => {
    const app = reportingApp();
    const response = await serveFor(JOHN, () => app.fetch(new Request('http://localhost/who')));
    expect(await response.json()).toEqual({ first: null, again: null });
  });
});
