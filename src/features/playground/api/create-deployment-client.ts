import { Client } from '@langchain/langgraph-sdk';
import { EMBEDDED_DEPLOYMENT_PATH, type Connection } from '@/features/playground/model/connection';

/**
 * One retry at most: a demo should fail fast with a readable error rather than back off for
 * seconds. Four flows run side by side when comparing strategies, each holding a join open.
 */
const callerOptions = { maxRetries: 1, maxConcurrency: 16 };

/** The official SDK client for a connection setting. The API key never comes from env lookups. */
export function createDeploymentClient(
  connection: Connection,
  origin: string = window.location.origin,
): Client {
  if (connection.kind === 'embedded') {
    return new Client({
      apiUrl: `${origin}${EMBEDDED_DEPLOYMENT_PATH}`,
      apiKey: null,
      callerOptions,
    });
  }
  return new Client({
    apiUrl: connection.url,
    apiKey: connection.apiKey === '' ? null : connection.apiKey,
    callerOptions,
  });
}
