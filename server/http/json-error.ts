import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Every error this server sends has FastAPI's shape: `{"detail": ...}`. */
export function jsonError(c: Context, status: ContentfulStatusCode, detail: unknown) {
  return c.json({ detail }, status);
}
