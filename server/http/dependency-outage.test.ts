import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it, vi } from 'vitest';
import { answerUnhandledError, DependencyError, outageOf } from './dependency-outage';

const systemError = (code: string, port: number) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:${port}`), {
    code,
    address: '127.0.0.1',
    port,
  });

describe('outageOf', () => {
  it.each([
    ['a refused connect', systemError('ECONNREFUSED', 5432), '127.0.0.1:5432'],
    ['a reset connection', systemError('ECONNRESET', 8123), '127.0.0.1:8123'],
    [
      "Postgres's administrator shutdown (57P01)",
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
      'postgres',
    ],
    ["pg's lost connection", new Error('Connection terminated unexpectedly'), 'postgres'],
    ["pg's connect timeout", new Error('timeout exceeded when trying to connect'), 'postgres'],
    ["ioredis's closed connection", new Error('Connection is closed.'), 'redis'],
    [
      'every address of a host refused (AggregateError)',
      new AggregateError([systemError('ECONNREFUSED', 9000)], ''),
      '127.0.0.1:9000',
    ],
    [
      'a refused connect as the cause',
      new Error('request failed', { cause: systemError('ECONNREFUSED', 6379) }),
      '127.0.0.1:6379',
    ],
    [
      'a refused connect met calling ClickHouse',
      new DependencyError('clickhouse', 'connect ECONNREFUSED', {
        cause: systemError('ECONNREFUSED', 8123),
      }),
      'clickhouse',
    ],
    [
      'a call past its deadline',
      new DependencyError('clickhouse', 'no answer within 3000 ms', {
        cause: new Error('The user aborted a request.'),
        code: 'ETIMEDOUT',
      }),
      'clickhouse',
    ],
  ])('names the dependency of %s', (_case, error, dependency) => {
    expect(outageOf(error)?.dependency).toBe(dependency);
  });

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    [
      'a constraint violation',
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
    ],
    ['a string', 'ECONNREFUSED'],
    [
      "a dependency's refusal of the statement",
      new DependencyError('clickhouse', 'Syntax error', {
        cause: Object.assign(new Error('Syntax error: failed at position 1'), { code: '62' }),
      }),
    ],
  ])('leaves %s a 500', (_case, error) => {
    expect(outageOf(error)).toBeUndefined();
  });
});

describe('answerUnhandledError', () => {
  const appThrowing = (error: unknown) => {
    const app = new Hono();
    app.get('/x', () => {
      throw error;
    });
    app.onError((thrown, c) => answerUnhandledError(c, thrown, 'test'));
    return app;
  };

  it("answers a route's HTTPException with its own status and message", async () => {
    const response = await appThrowing(new HTTPException(400, { message: 'Bad request' })).request(
      '/x',
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('Bad request');
  });

  it('answers an HTTPException of another copy of hono (a custom route’s) the same way', async () => {
    // What a custom route's own `hono` throws: not our class, the same shape.
    const foreign = Object.assign(new Error('Teapot'), {
      status: 418,
      getResponse: () => new Response('Teapot', { status: 418 }),
    });
    const response = await appThrowing(foreign).request('/x');
    expect(response.status).toBe(418);
    expect(await response.text()).toBe('Teapot');
  });

  it('keeps any other error a logged 500 with a JSON body', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await appThrowing(new Error('boom')).request('/x');
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ detail: 'Internal Server Error' });
      expect(logged).toHaveBeenCalledOnce();
    } finally {
      logged.mockRestore();
    }
  });
});
