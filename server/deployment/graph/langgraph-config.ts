import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BaseCheckpointSaver, BaseStore } from '@langchain/langgraph-checkpoint';
import { Hono } from 'hono';
import { z } from 'zod';
import { langGraphCorsSchema, type LangGraphCors } from '@server/http/cors-policy';
import type { AgentGraph } from './agent-graph';
import { registerFallbackResolve } from './fallback-resolve';
import { withLoadedSchemas } from './graph-schemas';
import { buildGraphUi, type GraphUi } from './graph-ui';
import { EMPTY_SCHEMAS, type GraphConfig, type ServedGraph } from './graph-registry';
import {
  langGraphWebhooksSchema,
  type LangGraphWebhooks,
  type WebhookSettings,
  webhookSettingsOf,
} from '../webhooks/webhook-config';
import {
  checkpointerTtlSchema,
  storeTtlSchema,
  storeTtlSettingsOf,
  threadTtlSettingsOf,
  type StoreTtlSettings,
  type ThreadTtlSettings,
} from '../ttl/ttl-config';

/** The parts of the official `langgraph.json` this server reads (`node_version` ignored). */
const langGraphJson = z.looseObject({
  graphs: z.record(z.string().min(1), z.string().regex(/^.+:[^:]+$/, 'must be "./file:export"')),
  env: z.union([z.record(z.string(), z.string()), z.string()]).optional(),
  http: z
    .looseObject({ app: z.string().optional(), cors: langGraphCorsSchema.optional() })
    .optional(),
  ui: z.record(z.string(), z.string()).optional(),
  ui_config: z.looseObject({ shared: z.array(z.string()).optional() }).optional(),
  webhooks: langGraphWebhooksSchema.optional(),
  auth: z
    .looseObject({ path: z.string().optional(), disable_studio_auth: z.boolean().optional() })
    .optional(),
  checkpointer: z.looseObject({ ttl: checkpointerTtlSchema.nullish() }).optional(),
  store: z.looseObject({ ttl: storeTtlSchema.nullish() }).optional(),
});

/** Custom auth named by a langgraph.json (`auth.path`) or LANGGRAPH_AUTH. */
export interface AuthSpec {
  /** `./file:export`, relative to `baseDir`. */
  path: string;
  baseDir: string;
  disableStudioAuth: boolean;
}

export type AssistantDefaults = Record<
  string,
  { config?: Record<string, unknown>; context?: unknown }
>;

export interface LoadedLangGraphConfig {
  graphs: ServedGraph[];
  /** From `env.LANGGRAPH_CONFIG` (JSON, graph id -> `{configurable, context, ...}`), as the CLI. */
  assistantDefaults: AssistantDefaults;
  /** Settles once the graphs' schemas are extracted (a TypeScript parse, seconds). */
  schemasReady: Promise<unknown>;
  /** The Hono app of `http.app`, served beside the API. */
  httpApp?: Hono;
  /** `http.cors`: which browser pages may call the API. */
  cors?: LangGraphCors;
  /** The bundles of `ui` (generative UI), built at load as the official server does. */
  ui?: GraphUi;
  /** `webhooks`: URL rules and headers (templates resolved from the environment at load). */
  webhooks?: WebhookSettings;
  auth?: AuthSpec;
  /** `checkpointer.ttl`: how threads expire. */
  threadTtl: ThreadTtlSettings;
  /** `store.ttl`: how store items expire. */
  storeTtl: StoreTtlSettings;
}

const defaultsSchema = z.record(
  z.string(),
  z.looseObject({ context: z.unknown().optional() }).transform(({ context, ...config }) => ({
    config,
    context,
  })),
);

/** The system assistants' defaults of `env.LANGGRAPH_CONFIG`; none when unset or not JSON. */
function assistantDefaultsOf(env: Record<string, string>): AssistantDefaults {
  const raw = env.LANGGRAPH_CONFIG;
  if (raw === undefined) return {};
  try {
    return defaultsSchema.parse(JSON.parse(raw));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new GraphLoadError(`Cannot read env.LANGGRAPH_CONFIG: ${reason}`, { cause: error });
  }
}

/**
 * The logger graphs get from `getLogger()` of `@langchain/langgraph-sdk/logging`, which the
 * platform registers under this global symbol (a graph calling it at import fails otherwise).
 */
function registerSdkLogger(): void {
  const log = (write: (...parts: unknown[]) => void) => (message: unknown, extra?: unknown) =>
    extra === undefined ? write(message) : write(message, extra);
  const logger = {
    error: log(console.error),
    warn: log(console.warn),
    info: log(console.info),
    debug: log(console.debug),
    trace: log(console.debug),
    fatal: log(console.error),
  };
  Reflect.set(globalThis, Symbol.for('langgraph.api.sdk-logger'), logger);
}

async function loadUi(defs: Record<string, string>, cwd: string, shared: string[] | undefined) {
  try {
    return await buildGraphUi(defs, { cwd, ...(shared && { shared }) });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new GraphLoadError(`Cannot bundle the ui of langgraph.json: ${reason}`, { cause: error });
  }
}

/** A load failure that names the file (and export) and the underlying error. */
export class GraphLoadError extends Error {
  override name = 'GraphLoadError';
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

async function importExport(baseDir: string, spec: string): Promise<unknown> {
  const separator = spec.lastIndexOf(':');
  const file = path.resolve(baseDir, spec.slice(0, separator));
  const name = spec.slice(separator + 1);
  try {
    // The server runs under tsx, so a .ts/.mts file is compiled on import like our own modules.
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    if (!(name in module)) throw new Error(`it has no export "${name}"`);
    return module[name];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new GraphLoadError(`Cannot load ${file} (export "${name}"): ${reason}`, { cause: error });
  }
}

const hasMethod = (value: unknown, method: string): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>)[method] === 'function';

type GraphDeps = { checkpointer: BaseCheckpointSaver; store?: BaseStore };

/**
 * A compiled graph or a StateGraph (compiled here) as the official CLI accepts it. The compiled
 * graph gets our checkpointer and store, as the platform gives them to its graphs.
 */
function compiledGraphOf(value: unknown, deps: GraphDeps): AgentGraph {
  if (hasMethod(value, 'stream') && hasMethod(value, 'getState')) {
    Object.assign(value as object, { checkpointer: deps.checkpointer, store: deps.store });
    // A loaded graph is a Pregel graph like the demo one; only its state types differ, which
    // the server never relies on (it passes state through as JSON).
    return value as AgentGraph;
  }
  if (hasMethod(value, 'compile')) {
    const graph = value as { compile: (options: object) => AgentGraph };
    return graph.compile({ checkpointer: deps.checkpointer, store: deps.store });
  }
  throw new Error('the export is neither a compiled graph, a StateGraph nor a graph factory');
}

/**
 * A graph export: a graph, or a factory `(config) => graph` (possibly async), which the official
 * server calls with each run's, thread's or assistant's config. The factory is called once at
 * load with `{}` too, so that a broken one stops start-up.
 */
async function servedGraphOf(
  graphId: string,
  exported: unknown,
  deps: GraphDeps,
): Promise<ServedGraph> {
  const served = { graphId, schemas: EMPTY_SCHEMAS, foreign: true };
  if (typeof exported !== 'function' || hasMethod(exported, 'invoke')) {
    return { ...served, runtime: compiledGraphOf(exported, deps) };
  }
  const factory = exported as (config: GraphConfig) => unknown;
  const build = async (config: GraphConfig) => compiledGraphOf(await factory(config), deps);
  return { ...served, runtime: await build({}), build };
}

/**
 * Loads a `langgraph.json`: applies its `env` to `process.env` first (graphs may read it on
 * import), imports each graph and the `http.app`. Any failure throws a GraphLoadError naming the
 * file, so that start-up stops with it.
 */
export async function loadLangGraphConfig(
  configPath: string,
  deps: GraphDeps,
): Promise<LoadedLangGraphConfig> {
  const file = path.resolve(configPath);
  let json: z.infer<typeof langGraphJson>;
  try {
    json = langGraphJson.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new GraphLoadError(`Cannot read ${file}: ${reason}`, { cause: error });
  }
  const baseDir = path.dirname(file);
  if (typeof json.env === 'object') Object.assign(process.env, json.env);
  else if (typeof json.env === 'string') process.loadEnvFile(path.resolve(baseDir, json.env));
  registerFallbackResolve(repoRoot);
  registerSdkLogger();
  const webhooks = json.webhooks && readWebhooks(json.webhooks, file);

  const loaded: ServedGraph[] = [];
  for (const [graphId, spec] of Object.entries(json.graphs)) {
    const exported = await importExport(baseDir, spec);
    try {
      loaded.push(await servedGraphOf(graphId, exported, deps));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new GraphLoadError(`Cannot load graph "${graphId}" from ${spec}: ${reason}`, {
        cause: error,
      });
    }
  }
  const httpSpec = json.http?.app;
  const httpApp = httpSpec ? await importExport(baseDir, httpSpec) : undefined;
  if (httpApp !== undefined && !(httpApp instanceof Hono) && !hasMethod(httpApp, 'fetch')) {
    throw new GraphLoadError(`Cannot load ${httpSpec}: http.app must export a Hono app`);
  }
  const ui = json.ui && (await loadUi(json.ui, baseDir, json.ui_config?.shared));
  const { graphs, ready } = await withLoadedSchemas(
    loaded,
    json.graphs,
    { baseDir, repoRoot },
    (error) =>
      console.error(
        `Cannot extract the schemas of ${file}'s graphs (they answer open objects):`,
        error,
      ),
  );
  return {
    graphs,
    schemasReady: ready,
    assistantDefaults: assistantDefaultsOf(typeof json.env === 'object' ? json.env : {}),
    threadTtl: threadTtlSettingsOf(json.checkpointer?.ttl ?? undefined),
    storeTtl: storeTtlSettingsOf(json.store?.ttl ?? undefined),
    ...(httpApp !== undefined && { httpApp: httpApp as Hono }),
    ...(json.http?.cors && { cors: json.http.cors }),
    ...(ui && { ui }),
    ...(webhooks && { webhooks }),
    ...(json.auth?.path && {
      auth: {
        path: json.auth.path,
        baseDir,
        disableStudioAuth: json.auth.disable_studio_auth ?? false,
      },
    }),
  };
}

function readWebhooks(webhooks: LangGraphWebhooks, file: string): WebhookSettings {
  try {
    return webhookSettingsOf(webhooks, process.env);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new GraphLoadError(`Cannot read ${file}: ${reason}`, { cause: error });
  }
}
