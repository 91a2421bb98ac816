import { z } from 'zod';

/**
 * LangGraph Studio's pages: public https origins that call a server on the user's machine. The
 * default list, so that `smith.langchain.com/studio/?baseUrl=http://127.0.0.1:5173/deployment`
 * connects without configuration.
 */
export const STUDIO_ORIGINS = ['https://smith.langchain.com', 'https://eu.smith.langchain.com'];

/** Headers the official server always exposes: the SDK reads them (run ids, page totals). */
const REQUIRED_EXPOSE_HEADERS = ['content-location', 'x-pagination-total'];
const DEFAULT_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH'];

/** `http.cors` of langgraph.json, as the official server reads it. */
export const langGraphCorsSchema = z.object({
  allow_origins: z.array(z.string()).optional(),
  allow_origin_regex: z.string().optional(),
  allow_methods: z.array(z.string()).optional(),
  allow_headers: z.array(z.string()).optional(),
  allow_credentials: z.boolean().optional(),
  expose_headers: z.array(z.string()).optional(),
  max_age: z.number().optional(),
});
export type LangGraphCors = z.infer<typeof langGraphCorsSchema>;

/** Which cross-origin pages may call an API, and what their preflights are answered. */
export interface CorsPolicy {
  /** `*`: any origin (the official server's default). */
  anyOrigin: boolean;
  allows: (origin: string) => boolean;
  allowMethods: string[];
  /** Undefined: the headers a preflight asks for are allowed. */
  allowHeaders?: string[];
  allowCredentials: boolean;
  exposeHeaders: string[];
  maxAge?: number;
  /** Where the list came from, for the refusal message. */
  source: string;
}

const normalise = (origin: string) => origin.trim().replace(/\/+$/, '').toLowerCase();

function originsPolicy(origins: string[], source: string): CorsPolicy {
  const listed = new Set(origins.map(normalise));
  return {
    anyOrigin: listed.has('*'),
    allows: (origin) => listed.has('*') || listed.has(normalise(origin)),
    allowMethods: DEFAULT_METHODS,
    allowCredentials: false,
    exposeHeaders: REQUIRED_EXPOSE_HEADERS,
    source,
  };
}

function fileCorsPolicy(cors: LangGraphCors): CorsPolicy {
  const regex = cors.allow_origin_regex ? new RegExp(cors.allow_origin_regex) : undefined;
  const listed = originsPolicy(cors.allow_origins ?? ['*'], 'http.cors of langgraph.json');
  const exposed = new Set([
    ...(cors.expose_headers ?? []).map((name) => name.toLowerCase()),
    ...REQUIRED_EXPOSE_HEADERS,
  ]);
  return {
    ...listed,
    // As the official server: a regex replaces the list.
    anyOrigin: regex ? false : listed.anyOrigin,
    allows: regex ? (origin) => regex.test(origin) : listed.allows,
    allowMethods: cors.allow_methods ?? DEFAULT_METHODS,
    ...(cors.allow_headers && { allowHeaders: cors.allow_headers }),
    allowCredentials: cors.allow_credentials ?? false,
    exposeHeaders: [...exposed],
    ...(cors.max_age !== undefined && { maxAge: cors.max_age }),
  };
}

/**
 * The deployment API's CORS policy: langgraph.json's `http.cors` when it has one (as on the
 * official server, where it wins over the environment), else `CORS_ALLOW_ORIGINS`
 * (comma-separated origins, `*` for any), else LangGraph Studio's origins.
 */
export function deploymentCorsPolicy(
  envOrigins: string[] | undefined,
  fileCors: LangGraphCors | undefined,
): CorsPolicy {
  if (fileCors) return fileCorsPolicy(fileCors);
  if (envOrigins) return originsPolicy(envOrigins, 'CORS_ALLOW_ORIGINS');
  return originsPolicy(STUDIO_ORIGINS, 'CORS_ALLOW_ORIGINS (default: LangGraph Studio only)');
}
