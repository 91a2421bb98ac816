import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { jsonError } from './json-error';

const uuid = z.uuid();

/**
 * Checks that the named path parameters are UUIDs before any handler runs, answering 422 in
 * FastAPI's shape (as the LangGraph server does). Ids end up in SQL keys, checkpoints and
 * response headers; an id that cannot go in a header must be refused before anything is written.
 */
export function requireUuidParams(...names: string[]): MiddlewareHandler {
  return async (c, next) => {
    const issues = names.flatMap((name) => {
      const value = c.req.param(name);
      if (value === undefined || uuid.safeParse(value).success) return [];
      return [
        {
          loc: ['path', name],
          msg: 'Input should be a valid UUID',
          type: 'uuid_parsing',
          input: value,
        },
      ];
    });
    if (issues.length > 0) return jsonError(c, 422, issues);
    await next();
  };
}
