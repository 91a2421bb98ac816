import { describe, expect, it } from 'vitest';
import type { Connection } from './connection';
import { describeError } from './describe-error';
import { FlowCancelledError, FlowError, type FlowStage } from './flow-error';

/** Shaped like the SDK's (unexported) HTTPError. */
function httpError(status: number, detail: string) {
  return Object.assign(new Error(`HTTP ${status}`), {
    status,
    text: JSON.stringify({ detail }),
  });
}

function connectionError() {
  const error = new Error('Unable to connect to LangGraph server. Original error: Failed to fetch');
  error.name = 'ConnectionError';
  return error;
}

const embedded: Connection = { kind: 'embedded' };
const remote: Connection = { kind: 'url', url: 'https://dep.example.com', apiKey: 'k' };

describe('describeError', () => {
  it.each<[string, unknown, Connection, string, RegExp]>([
    ['a cancel', new FlowCancelledError(), embedded, 'Cancelled', /cancelled too/],
    [
      'the proxy unreachable',
      new FlowError('thread-create', connectionError()),
      embedded,
      'Deployment unreachable',
      /\/_console\/deployment/,
    ],
    [
      'a remote URL unreachable or refused by CORS',
      new FlowError('thread-create', new TypeError('Failed to fetch')),
      remote,
      'Deployment unreachable or CORS refused',
      /https:\/\/dep\.example\.com.*http:\/\/localhost:5173/,
    ],
    [
      'a 401',
      new FlowError('thread-create', httpError(401, 'bad key')),
      remote,
      'Not authorized (401)',
      /bad key/,
    ],
    [
      'a 403',
      new FlowError('run1-create', httpError(403, 'no access')),
      embedded,
      'Not authorized (403)',
      /no access/,
    ],
    [
      'an unknown assistant',
      new FlowError('run1-create', httpError(404, 'Assistant nope not found')),
      embedded,
      'Unknown assistant',
      /"nope"/,
    ],
    [
      'a URL that is no deployment',
      new FlowError('thread-create', httpError(404, 'Not Found')),
      remote,
      'No deployment API at this address',
      /404/,
    ],
    [
      'a 404 elsewhere',
      new FlowError('run-join' satisfies FlowStage, httpError(404, 'Run gone')),
      embedded,
      'Request refused (404)',
      /Run gone/,
    ],
    [
      'a server error',
      new FlowError('state-read', httpError(500, 'boom')),
      embedded,
      'Deployment error (500)',
      /boom/,
    ],
    ['anything else', new Error('odd'), embedded, 'Something went wrong', /odd/],
    ['a thrown string', 'weird', embedded, 'Something went wrong', /weird/],
  ])('describes %s', (_name, error, connection, title, message) => {
    const description = describeError(error, {
      connection,
      assistantId: 'nope',
      origin: 'http://localhost:5173',
    });
    expect(description.title).toBe(title);
    expect(description.message).toMatch(message);
  });

  it('points at the server key for the embedded setting and at the typed key otherwise', () => {
    const error = new FlowError('thread-create', httpError(401, 'bad key'));
    const context = { assistantId: 'agent', origin: 'http://x' };
    expect(describeError(error, { ...context, connection: embedded }).hint).toMatch(
      /LANGGRAPH_API_KEY/,
    );
    expect(describeError(error, { ...context, connection: remote }).hint).toMatch(/x-api-key/);
  });

  it('tells what to set when CORS may be the cause', () => {
    const error = new FlowError('thread-create', new TypeError('Failed to fetch'));
    const hint = describeError(error, {
      connection: remote,
      assistantId: 'agent',
      origin: 'http://x',
    }).hint;
    expect(hint).toMatch(/allow_origins/);
    expect(hint).toMatch(/LANGGRAPH_DEPLOYMENT_URL/);
  });
});
