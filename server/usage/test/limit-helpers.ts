import { Client } from 'langsmith';
import {
  limitStatusListSchema,
  usageLimitSchema,
  type LimitStatus,
  type LimitType,
  type UsageLimit,
} from '@contracts/usage/usage-limits';
import { ADMIN } from './test-server';

/** `PUT /api/v1/usage-limits` for `workspaceId` with `apiKey`: the raw response. */
export function putLimitResponse(
  baseUrl: string,
  workspaceId: string,
  body: unknown,
  apiKey = ADMIN['x-api-key'],
): Promise<Response> {
  return fetch(`${baseUrl}/api/v1/usage-limits`, {
    method: 'PUT',
    headers: {
      'x-api-key': apiKey,
      'x-tenant-id': workspaceId,
      'content-type': 'application/json',
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Sets a limit with the admin key and returns the stored limit (fails the test otherwise). */
export async function putLimit(
  baseUrl: string,
  workspaceId: string,
  limitValue: number,
  limitType: LimitType = 'monthly_traces',
): Promise<UsageLimit> {
  const response = await putLimitResponse(baseUrl, workspaceId, {
    limit_type: limitType,
    limit_value: limitValue,
  });
  if (response.status !== 200)
    throw new Error(`PUT limit: ${response.status} ${await response.text()}`);
  return usageLimitSchema.parse(await response.json());
}

/** This month's status of one workspace's limit of `type`, as the tab reads it. */
export async function limitStatus(
  baseUrl: string,
  workspaceId: string,
  type: LimitType = 'monthly_traces',
): Promise<LimitStatus> {
  const response = await fetch(`${baseUrl}/api/v1/usage-limits/org/status`, { headers: ADMIN });
  const status = limitStatusListSchema
    .parse(await response.json())
    .find((entry) => entry.workspace_id === workspaceId && entry.limit_type === type);
  if (!status) throw new Error(`No status for ${workspaceId} ${type}`);
  return status;
}

/** An ingestion answer the SDK received, as a client would inspect it. */
export interface RecordedAnswer {
  path: string;
  status: number;
  retryAfter: string | null;
  body: unknown;
}

/**
 * A langsmith SDK client that records every ingestion answer (through the SDK's own
 * `fetchImplementation` option) and does not retry a 429, so a refusal is reported at once.
 */
export function recordingSdkClient(baseUrl: string, apiKey: string, workspaceId: string) {
  const answers: RecordedAnswer[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.includes('/runs')) {
      const text = await response.clone().text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text.
      }
      answers.push({
        path: url.pathname,
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body,
      });
    }
    return response;
  };
  const client = new Client({
    apiUrl: `${baseUrl}/api/v1`,
    apiKey,
    workspaceId,
    autoBatchTracing: true,
    fetchImplementation: recordingFetch,
    callerOptions: { maxRetries: 0 },
  });
  return { client, answers };
}
