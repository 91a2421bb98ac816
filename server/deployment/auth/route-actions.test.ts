import { describe, expect, it } from 'vitest';
import { routeAction } from './route-actions';

const T = '5f0c8f5e-1a55-4c57-9d44-0b6f6a7d2e01';

describe('routeAction', () => {
  it.each([
    ['GET', '/ok', 'public'],
    ['GET', '/info', 'public'],
    ['POST', '/threads', { resource: 'threads', action: 'create' }],
    ['POST', '/threads/search', { resource: 'threads', action: 'search' }],
    ['POST', '/threads/count', { resource: 'threads', action: 'search' }],
    ['GET', `/threads/${T}`, { resource: 'threads', action: 'read', threadId: T }],
    ['PATCH', `/threads/${T}`, { resource: 'threads', action: 'update', threadId: T }],
    ['DELETE', `/threads/${T}`, { resource: 'threads', action: 'delete', threadId: T }],
    ['POST', `/threads/${T}/copy`, { resource: 'threads', action: 'read', threadId: T }],
    ['GET', `/threads/${T}/state`, { resource: 'threads', action: 'read', threadId: T }],
    ['POST', `/threads/${T}/state`, { resource: 'threads', action: 'update', threadId: T }],
    ['POST', `/threads/${T}/history`, { resource: 'threads', action: 'read', threadId: T }],
    ['GET', `/threads/${T}/stream`, { resource: 'threads', action: 'read', threadId: T }],
    ['POST', `/threads/${T}/runs`, { resource: 'threads', action: 'create_run', threadId: T }],
    [
      'POST',
      `/threads/${T}/runs/stream`,
      { resource: 'threads', action: 'create_run', threadId: T },
    ],
    ['POST', `/threads/${T}/runs/wait`, { resource: 'threads', action: 'create_run', threadId: T }],
    ['GET', `/threads/${T}/runs/${T}/join`, { resource: 'threads', action: 'read', threadId: T }],
    [
      'POST',
      `/threads/${T}/runs/${T}/cancel`,
      { resource: 'threads', action: 'update', threadId: T },
    ],
    ['DELETE', `/threads/${T}/runs/${T}`, { resource: 'threads', action: 'delete', threadId: T }],
    ['POST', `/threads/${T}/runs/crons`, { resource: 'crons', action: 'create', threadId: T }],
    ['POST', `/threads/${T}/commands`, { resource: 'threads', action: 'create_run', threadId: T }],
    ['GET', `/threads/${T}/stream/events`, { resource: 'threads', action: 'read', threadId: T }],
    ['POST', '/runs', { resource: 'threads', action: 'create_run' }],
    ['POST', '/runs/batch', { resource: 'threads', action: 'create_run' }],
    ['POST', '/runs/crons', { resource: 'crons', action: 'create' }],
    ['POST', '/runs/crons/search', { resource: 'crons', action: 'search' }],
    ['PATCH', `/runs/crons/${T}`, { resource: 'crons', action: 'update', cronId: T }],
    ['DELETE', `/runs/crons/${T}`, { resource: 'crons', action: 'delete', cronId: T }],
    ['POST', '/assistants', { resource: 'assistants', action: 'create' }],
    ['POST', '/assistants/search', { resource: 'assistants', action: 'search' }],
    ['GET', `/assistants/${T}/graph`, { resource: 'assistants', action: 'read', assistantId: T }],
    [
      'POST',
      `/assistants/${T}/versions`,
      { resource: 'assistants', action: 'read', assistantId: T },
    ],
    [
      'POST',
      `/assistants/${T}/latest`,
      { resource: 'assistants', action: 'update', assistantId: T },
    ],
    [
      'DELETE',
      '/assistants/agent',
      { resource: 'assistants', action: 'delete', assistantId: 'agent' },
    ],
    ['PUT', '/store/items', { resource: 'store', action: 'put', inRoute: true }],
    ['GET', '/store/items', { resource: 'store', action: 'get', inRoute: true }],
    ['DELETE', '/store/items', { resource: 'store', action: 'delete', inRoute: true }],
    ['POST', '/store/items/search', { resource: 'store', action: 'search', inRoute: true }],
    ['POST', '/store/namespaces', { resource: 'store', action: 'list_namespaces', inRoute: true }],
    ['GET', '/my-route', undefined],
  ])('%s %s', (method, path, expected) => {
    expect(routeAction(method, path)).toEqual(expected);
  });
});
