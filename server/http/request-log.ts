import type { MiddlewareHandler } from 'hono';

export type LogLevel = 'silent' | 'info' | 'debug';

/** Where log lines go; stdout by default, one JSON object per line. */
export type LogSink = (line: string) => void;

const toStdout: LogSink = (line) => process.stdout.write(`${line}\n`);

/**
 * Structured request logs, one JSON line per request once its response has started: `info`
 * gives method, path, status and milliseconds; `debug` adds the query string, user agent and
 * body sizes; `silent` logs nothing. Keys and other headers are never logged. A few lines of
 * our own rather than a logging library: one record shape, no transports, no child loggers.
 */
export function requestLog(level: LogLevel, sink: LogSink = toStdout): MiddlewareHandler {
  return async (c, next) => {
    if (level === 'silent') return next();
    const started = performance.now();
    await next();
    const url = new URL(c.req.url);
    const record: Record<string, unknown> = {
      time: new Date().toISOString(),
      level: c.res.status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: c.req.method,
      path: url.pathname,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (level === 'debug') {
      // The sign-in callback's query carries an authorization code: never written down.
      record.query = url.pathname.startsWith('/_console/auth/') ? '' : url.search;
      record.user_agent = c.req.header('user-agent') ?? null;
      record.request_bytes = Number(c.req.header('content-length') ?? 0);
      record.response_bytes = c.res.headers.get('content-length');
      record.has_api_key = c.req.header('x-api-key') !== undefined;
    }
    sink(JSON.stringify(record));
  };
}
