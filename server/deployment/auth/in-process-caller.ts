import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuthUser } from './auth-types';

/** The caller the deployment API is serving: what its route's own code does is done for them. */
const serving = new AsyncLocalStorage<AuthUser | undefined>();

/**
 * One in-process SDK request on its way to the door, and the caller it acts for. The door takes
 * it once: a request the route makes by other means (a webhook's loopback) never inherits it.
 */
const entering = new AsyncLocalStorage<{ user: AuthUser; taken: boolean } | undefined>();

/** Runs `work` as serving `user`; `undefined` serves no one (a run's graph, a timer). */
export const serveFor = <T>(user: AuthUser | undefined, work: () => T): T =>
  serving.run(user, work);

/**
 * The `fetch` behind `new Client()` without a URL (the SDK's `langgraph_api:fetch`): the request
 * goes to `app` in-process, and while a request is being served, it acts for that request's
 * caller. A custom route that calls the SDK thus reads and writes what its caller may, as the
 * caller, neither refused for lack of credentials nor let past the door.
 */
export function inProcessFetch(app: {
  fetch: (request: Request) => Response | Promise<Response>;
}): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = new Request(input, init);
    const user = serving.getStore();
    return entering.run(user && { user, taken: false }, () => app.fetch(request));
  };
}

/** The caller of the in-process SDK request now at the door, once; else undefined. */
export function takeInProcessCaller(): AuthUser | undefined {
  const entry = entering.getStore();
  if (!entry || entry.taken) return undefined;
  entry.taken = true;
  return entry.user;
}
