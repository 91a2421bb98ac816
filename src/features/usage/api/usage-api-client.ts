import { toHttpError } from '@/lib/http-error';
import type { UsageConnection } from './usage-connection';

/** The console's proxy path; see server/console/console-proxy.ts. */
const CONSOLE_USAGE_BASE = '/_console/usage';

/** Thrown when the request never got an answer (offline, DNS, CORS refusal). */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

/** The API root of a connection: LangSmith's `{base}/api/v1`, or the console proxy. */
export function usageApiRoot(connection: UsageConnection): string {
  if (!connection.baseUrl) return CONSOLE_USAGE_BASE;
  return `${connection.baseUrl.replace(/\/+$/, '')}/api/v1`;
}

export function usageApiUrl(connection: UsageConnection, path: string, params?: URLSearchParams) {
  const query = params && params.size > 0 ? `?${params.toString()}` : '';
  return `${usageApiRoot(connection)}${path}${query}`;
}

/** GET against the usage API; non-2xx answers become HttpError, no answer a NetworkError. */
export async function getFromUsageApi(
  connection: UsageConnection,
  path: string,
  params: URLSearchParams | undefined,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (connection.apiKey) headers['x-api-key'] = connection.apiKey;
  const url = usageApiUrl(connection, path, params);
  let response: Response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new NetworkError(
      connection.baseUrl
        ? `Could not reach ${connection.baseUrl}. Check the address, your network, and that the ` +
            `server allows requests from this page (CORS).`
        : 'Could not reach the console server. Is `npm start` still running?',
    );
  }
  if (!response.ok) throw await toHttpError(response);
  return response;
}

/** A write (POST, PUT, DELETE) with a JSON body; same errors as `getFromUsageApi`. */
export async function sendToUsageApi(
  connection: UsageConnection,
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extraHeaders };
  if (connection.apiKey) headers['x-api-key'] = connection.apiKey;
  let response: Response;
  try {
    response = await fetch(usageApiUrl(connection, path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new NetworkError(
      connection.baseUrl
        ? `Could not reach ${connection.baseUrl}. Check the address and your network.`
        : 'Could not reach the console server. Is `npm start` still running?',
    );
  }
  if (!response.ok) throw await toHttpError(response);
  return response;
}
