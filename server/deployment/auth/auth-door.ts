import type { Context, MiddlewareHandler } from 'hono';
import { jsonError } from '@server/http/json-error';
import type { CronStore, ThreadStore } from '../store/deployment-store';
import { matchesFilters } from '../store/metadata-filter';
import {
  ANONYMOUS_USER,
  type AuthAction,
  type AuthDecision,
  type AuthPolicy,
  AuthRefusal,
  type AuthResource,
  type AuthUser,
  OPEN_DECISION,
  type RunOwner,
} from './auth-types';
import { serveFor, takeInProcessCaller } from './in-process-caller';
import { routeAction } from './route-actions';

declare module 'hono' {
  interface ContextVariableMap {
    authUser: AuthUser;
    authDecision: AuthDecision;
    authPolicy: AuthPolicy;
  }
}

/** The request's user (anonymous in noop mode). */
export const authUserOf = (c: Context): AuthUser => c.get('authUser') ?? ANONYMOUS_USER;

/** What authorization decided for the request: its records' filters and the metadata to stamp. */
export const authDecisionOf = (c: Context): AuthDecision => c.get('authDecision') ?? OPEN_DECISION;

/** The request's caller as the owner of the runs it creates. */
export const runOwnerOf = (c: Context): RunOwner => ({
  stamp: authDecisionOf(c).stamp,
  user: authUserOf(c),
});

/** Metadata as the caller sent it, with the decision's stamp over it (the owner cannot be forged). */
export const stampedMetadata = (
  c: Context,
  metadata: Record<string, unknown> | null | undefined,
): Record<string, unknown> => ({ ...metadata, ...authDecisionOf(c).stamp });

/**
 * Authorizes `action` on `resource` with the request's own value, for routes whose decision
 * depends on their body (the store's namespace and key): the decision, or the refusal to send.
 */
export async function authorizeInRoute(
  c: Context,
  resource: AuthResource,
  action: AuthAction,
  value: Record<string, unknown>,
): Promise<AuthDecision | Response> {
  const policy = c.get('authPolicy');
  if (!policy) return { ...OPEN_DECISION, value };
  try {
    const decision = await policy.authorize(authUserOf(c), resource, action, value);
    return { ...decision, value: decision.value ?? value };
  } catch (error) {
    if (error instanceof AuthRefusal) return refusalResponse(c, error);
    throw error;
  }
}

export function refusalResponse(c: Context, refusal: AuthRefusal): Response {
  for (const [name, value] of Object.entries(refusal.headers)) c.header(name, value);
  return jsonError(c, refusal.status, refusal.detail);
}

/**
 * The deployment API's one door: every request (routes, protocol v2 commands, WebSocket
 * upgrades, streams) is authenticated here, then authorized for what its method and path do.
 * A thread, assistant or cron named in the path must meet the decision's filters, or the request
 * answers 404 as for one that does not exist: another caller's record is never confirmed.
 * An in-process SDK request made while serving a caller (`new Client()` in a custom route) is
 * that caller's, authorized as theirs; the route's code runs as serving the request's caller.
 */
export function authDoor(
  policy: AuthPolicy,
  records: {
    threads: Pick<ThreadStore, 'get'>;
    assistants: {
      get(idOrGraph: string): Promise<{ metadata: Record<string, unknown> } | undefined>;
    };
    crons: Pick<CronStore, 'get'>;
  },
): MiddlewareHandler {
  return async (c, next) => {
    if (policy.mode === 'noop' || c.req.method === 'OPTIONS') return next();
    // The service is mounted under `/deployment`, or served as it is (the console's embedded proxy).
    const mount = c.req.routePath.replace(/\/?\*$/, '');
    const action = routeAction(c.req.method, c.req.path.slice(mount.length) || '/');
    if (action === 'public') return next();
    let user: AuthUser;
    try {
      user = takeInProcessCaller() ?? (await policy.authenticate(c.req.raw));
      c.set('authUser', user);
      c.set('authPolicy', policy);
      if (action && !action.inRoute) {
        const value = {
          ...(action.threadId && { thread_id: action.threadId }),
          ...(action.assistantId && { assistant_id: action.assistantId }),
        };
        const decision = await policy.authorize(user, action.resource, action.action, value);
        c.set('authDecision', decision);
        if (action.threadId && decision.filters) {
          const thread = await records.threads.get(action.threadId);
          if (thread && !matchesFilters(thread.metadata, decision.filters)) {
            return jsonError(c, 404, `Thread with ID ${action.threadId} not found`);
          }
        }
        if (action.cronId && decision.filters) {
          const cron = await records.crons.get(action.cronId);
          if (cron && !matchesFilters(cron.metadata, decision.filters)) {
            return jsonError(c, 404, `Cron ${action.cronId} not found`);
          }
        }
        if (action.assistantId && decision.filters) {
          const assistant = await records.assistants.get(action.assistantId);
          if (assistant && !matchesFilters(assistant.metadata, decision.filters)) {
            return jsonError(c, 404, 'Assistant not found');
          }
        }
      }
    } catch (error) {
      if (error instanceof AuthRefusal) return refusalResponse(c, error);
      throw error;
    }
    return serveFor(user, next);
  };
}
