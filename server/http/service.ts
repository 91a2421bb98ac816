import type { Hono } from 'hono';
import type { CorsPolicy } from './cors-policy';

/**
 * One embedded service of the `npm start` process: a Hono sub-app mounted at `basePath`, and how
 * it stops. Shutdown calls `drain` first (while requests may still be in flight), then `close`.
 */
export interface Service {
  name: string;
  basePath: string;
  app: Hono;
  /** Routes also served at the root path (e.g. LangSmith's `/runs/*` without `/api/v1`). */
  rootApp?: Hono;
  /** Cross-origin pages the service answers (app.ts's browser guard); unset: none. */
  cors?: CorsPolicy;
  /** Extra fields for `/healthz` (e.g. row counts); must not throw. */
  health?: () => Promise<Record<string, unknown>>;
  /**
   * Stops starting new background work and releases requests waiting on it (run joins), so
   * in-flight requests can finish at once. The databases stay open for them.
   */
  drain?: () => Promise<void>;
  /** Settles once start-up work done in the background is (a langgraph.json's schema parse). */
  ready?: () => Promise<unknown>;
  /** Releases what the service holds (databases); called once no request is in flight. */
  close: () => Promise<void>;
}
