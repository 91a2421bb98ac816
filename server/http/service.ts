import type { Hono } from 'hono';

/**
 * One embedded service of the `npm start` process: a Hono sub-app mounted at `basePath`,
 * and a `close` that releases what it holds (databases, running work) on shutdown.
 */
export interface Service {
  name: string;
  basePath: string;
  app: Hono;
  /** Routes also served at the root path (e.g. LangSmith's `/runs/*` without `/api/v1`). */
  rootApp?: Hono;
  /** Extra fields for `/healthz` (e.g. row counts); must not throw. */
  health?: () => Promise<Record<string, unknown>>;
  close: () => Promise<void>;
}
