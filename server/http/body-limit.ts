import { bodyLimit } from 'hono/body-limit';
import { jsonError } from './json-error';

/** Bodies the deployment API takes: a conversation turn and its metadata, never megabytes. */
export const DEPLOYMENT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Refuses request bodies over `maxBytes` with a JSON 413, whether the size is declared
 * (Content-Length) or only seen while streaming (chunked): the handler never buffers more.
 * Mount it on any service that reads bodies (deployment, trace ingestion).
 */
export function limitBody(maxBytes: number) {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      // The rest of the body is never read: the connection cannot carry another request.
      c.header('Connection', 'close');
      return jsonError(c, 413, `Request body larger than ${maxBytes} bytes.`);
    },
  });
}
