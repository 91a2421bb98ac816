import type { Config } from '@server/config';
import type { AuthPolicy } from './auth-types';
import { createLangSmithPolicy } from './langsmith-policy';
import { NOOP_POLICY } from './noop-policy';

/** `https://host`, `https://host/` or `https://host/api/v1`: the API base under which keys are checked. */
function apiBaseOf(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
}

/**
 * The deployment API's authentication mode. `usageApiBase`: the embedded usage service's API
 * (`…/api/v1`, known once the server listens), which checks `langsmith` keys unless
 * LANGSMITH_AUTH_ENDPOINT names another LangSmith.
 */
export function authPolicyFromConfig(
  config: Config,
  usageApiBase: () => string | undefined = () => undefined,
): AuthPolicy {
  if (config.LANGGRAPH_AUTH_TYPE !== 'langsmith') return NOOP_POLICY;
  const endpoint = config.LANGSMITH_AUTH_ENDPOINT;
  return createLangSmithPolicy({
    apiBase: endpoint ? () => apiBaseOf(endpoint) : usageApiBase,
  });
}
