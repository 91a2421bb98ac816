import type { AuthAction, AuthResource } from './auth-types';

/** What a request does, in the terms authorization decides on. */
export interface RouteAction {
  resource: AuthResource;
  action: AuthAction;
  /** The thread the path names: it must be the caller's, else the request answers 404. */
  threadId?: string;
  /** The assistant the path names (an id or a graph id), under the same rule. */
  assistantId?: string;
  cronId?: string;
  /** The route authorizes itself, with the request's value (the store's namespace and key). */
  inRoute?: boolean;
}

/** Paths anyone may read, as on the official server (liveness and capabilities). */
const PUBLIC_PATHS = new Set(['/ok', '/info']);

const READ_METHODS = new Set(['GET', 'HEAD']);

/** Thread sub-paths whose POST only reads (`history`, `state/checkpoint`) or streams a join. */
const THREAD_READ_POSTS = new Set(['history', 'state/checkpoint', 'stream/events']);

function crudAction(method: string): AuthAction {
  if (READ_METHODS.has(method)) return 'read';
  if (method === 'DELETE') return 'delete';
  return 'update';
}

function threadAction(method: string, threadId: string, rest: string[]): RouteAction {
  const sub = rest.join('/');
  if (sub === '') return { resource: 'threads', action: crudAction(method), threadId };
  if (rest[0] === 'runs' && rest[1] === 'crons') {
    return { resource: 'crons', action: method === 'POST' ? 'create' : 'read', threadId };
  }
  if (rest[0] === 'runs' && method === 'POST' && ['', 'wait', 'stream'].includes(rest[1] ?? '')) {
    return { resource: 'threads', action: 'create_run', threadId };
  }
  // Protocol v2 commands start runs (`run.input`) as well as reading state.
  if (sub === 'commands') return { resource: 'threads', action: 'create_run', threadId };
  if (READ_METHODS.has(method) || THREAD_READ_POSTS.has(sub)) {
    return { resource: 'threads', action: 'read', threadId };
  }
  if (sub === 'copy') return { resource: 'threads', action: 'read', threadId };
  return { resource: 'threads', action: method === 'DELETE' ? 'delete' : 'update', threadId };
}

const SEARCHES = new Set(['search', 'count']);

/**
 * Classifies a deployment API request (path relative to the service): `'public'` for the paths
 * that need no credential, `undefined` for paths that are no resource's (a langgraph.json's own
 * routes, `/ui`: authenticated only).
 */
export function routeAction(method: string, path: string): RouteAction | 'public' | undefined {
  if (PUBLIC_PATHS.has(path)) return 'public';
  const [area = '', first, ...rest] = path.split('/').filter((part) => part !== '');
  if (area === 'threads') {
    if (first === undefined) return { resource: 'threads', action: 'create' };
    if (SEARCHES.has(first) && method === 'POST') return { resource: 'threads', action: 'search' };
    // Pruning deletes threads (or their history); the route applies the caller's filters.
    if (first === 'prune' && method === 'POST') return { resource: 'threads', action: 'delete' };
    return threadAction(method, first, rest);
  }
  if (area === 'assistants') {
    if (first === undefined) return { resource: 'assistants', action: 'create' };
    if (SEARCHES.has(first) && method === 'POST') {
      return { resource: 'assistants', action: 'search' };
    }
    const assistantId = first;
    if (rest[0] === 'versions') return { resource: 'assistants', action: 'read', assistantId };
    return { resource: 'assistants', action: crudAction(method), assistantId };
  }
  if (area === 'runs') {
    if (first === 'crons') {
      const [second] = rest;
      if (second === undefined) return { resource: 'crons', action: 'create' };
      if (SEARCHES.has(second)) return { resource: 'crons', action: 'search' };
      return { resource: 'crons', action: crudAction(method), cronId: second };
    }
    if (READ_METHODS.has(method)) return { resource: 'threads', action: 'read' };
    return { resource: 'threads', action: 'create_run' };
  }
  if (area === 'store') {
    const inRoute = true;
    if (first === 'namespaces') return { resource: 'store', action: 'list_namespaces', inRoute };
    if (first === 'items' && rest[0] === 'search') {
      return { resource: 'store', action: 'search', inRoute };
    }
    if (method === 'PUT') return { resource: 'store', action: 'put', inRoute };
    if (method === 'DELETE') return { resource: 'store', action: 'delete', inRoute };
    return { resource: 'store', action: 'get', inRoute };
  }
  return undefined;
}
