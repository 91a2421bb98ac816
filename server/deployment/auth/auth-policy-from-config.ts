import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { Config } from '@server/config';
import { type AuthSpec, GraphLoadError } from '../graph/langgraph-config';
import type { AuthPolicy } from './auth-types';
import { createCustomPolicy, isAuth } from './custom-policy';
import { createLangSmithPolicy } from './langsmith-policy';
import { NOOP_POLICY } from './noop-policy';

/** `https://host`, `https://host/` or `https://host/api/v1`: the API base under which keys are checked. */
function apiBaseOf(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
}

const authJson = z.object({
  path: z.string().regex(/^.+:[^:]+$|^[^:]+$/),
  disable_studio_auth: z.boolean().optional(),
});

/** A start-up failure of custom auth, naming the file or the variable (reported as a graph's). */
export class AuthLoadError extends GraphLoadError {
  override name = 'AuthLoadError';
}

/** LANGGRAPH_AUTH's JSON as a spec; paths are relative to the working directory. */
export function authSpecFromEnv(raw: string | undefined): AuthSpec | undefined {
  if (raw === undefined) return undefined;
  let parsed: z.infer<typeof authJson>;
  try {
    parsed = authJson.parse(JSON.parse(raw));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AuthLoadError(
      `LANGGRAPH_AUTH must be JSON like {"path": "./auth.mts:auth"}: ${reason}`,
    );
  }
  return {
    path: parsed.path,
    baseDir: process.cwd(),
    disableStudioAuth: parsed.disable_studio_auth ?? false,
  };
}

async function importAuth(spec: AuthSpec) {
  const separator = spec.path.lastIndexOf(':');
  const [file, name] =
    separator > 0 ? [spec.path.slice(0, separator), spec.path.slice(separator + 1)] : [spec.path];
  const resolved = path.resolve(spec.baseDir, file ?? '');
  let exported: unknown;
  try {
    // The server runs under tsx, so a .ts/.mts file is compiled on import like the graphs.
    const module = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
    exported = module[name ?? 'default'];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new AuthLoadError(`Cannot load auth ${resolved}: ${reason}`, { cause: error });
  }
  if (!isAuth(exported)) {
    throw new AuthLoadError(
      `Auth must be an instance of Auth (@langchain/langgraph-sdk/auth): ${spec.path}`,
    );
  }
  return exported;
}

/**
 * The deployment API's authentication mode: custom auth when LANGGRAPH_AUTH or the langgraph.json
 * names one, else LANGGRAPH_AUTH_TYPE. `usageApiBase`: the embedded usage service's API
 * (`…/api/v1`, known once the server listens), which checks `langsmith` keys (and Studio's, under
 * custom auth) unless LANGSMITH_AUTH_ENDPOINT names another LangSmith.
 */
export async function openAuthPolicy(
  config: Config,
  options: { usageApiBase?: () => string | undefined; langgraphAuth?: AuthSpec } = {},
): Promise<AuthPolicy> {
  const endpoint = config.LANGSMITH_AUTH_ENDPOINT;
  const langsmith = () =>
    createLangSmithPolicy({
      apiBase: endpoint ? () => apiBaseOf(endpoint) : (options.usageApiBase ?? (() => undefined)),
    });
  const spec = authSpecFromEnv(config.LANGGRAPH_AUTH) ?? options.langgraphAuth;
  if (spec) {
    const auth = await importAuth(spec);
    return createCustomPolicy(auth, spec.disableStudioAuth ? undefined : langsmith());
  }
  return config.LANGGRAPH_AUTH_TYPE === 'langsmith' ? langsmith() : NOOP_POLICY;
}
