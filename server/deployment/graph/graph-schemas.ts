import {
  type GraphSchema,
  getRuntimeGraphSchema,
  getStaticGraphSchema,
} from '@langchain/langgraph-api/schema';
import path from 'node:path';
import { EMPTY_SCHEMAS, type GraphSchemas, type ServedGraph } from './graph-registry';
import { isRecord } from '../wire/json-contains';
import { schemaProjectFor } from './schema-project';

/** A compiled graph or subgraph, as the official extractor takes it. */
export type SchemaGraph = Parameters<typeof getRuntimeGraphSchema>[0];

/** Where a graph is defined: the file and export of its langgraph.json entry. */
export interface GraphSource {
  sourceFile: string;
  exportSymbol: string;
}

type JsonObject = Record<string, unknown>;

/** Whether a schema is a `$ref` to LangGraph's `Overwrite` wrapper (`{__overwrite__: ...}`). */
function isOverwriteRef(schema: unknown, definitions: JsonObject): boolean {
  if (!isRecord(schema) || typeof schema.$ref !== 'string') return false;
  const target = definitions[schema.$ref.replace('#/definitions/', '')];
  return isRecord(target) && isRecord(target.properties) && '__overwrite__' in target.properties;
}

/**
 * The state schema lists what a channel holds. The TypeScript parser reads it from the graph's
 * update type, where a reducer channel also takes `Overwrite` (`{__overwrite__: value}`, an
 * instruction to replace rather than reduce), e.g. `messages: anyOf [array, Overwrite]`. That
 * alternative is dropped here, as the 1.4 server's schema had it (the suite's subgraph test
 * expects `messages: {type: "array"}`).
 */
export function withoutOverwrite(schema: unknown): JsonObject | undefined {
  if (!isRecord(schema)) return undefined;
  if (!isRecord(schema.properties)) return schema;
  const definitions = isRecord(schema.definitions) ? schema.definitions : {};
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([key, property]) => {
      if (!isRecord(property) || !Array.isArray(property.anyOf)) return [key, property];
      const options: unknown[] = property.anyOf;
      const kept = options.filter((option) => !isOverwriteRef(option, definitions));
      if (kept.length === options.length) return [key, property];
      const { anyOf: _dropped, ...rest } = property;
      const [only] = kept;
      return [
        key,
        kept.length === 1 && isRecord(only) ? { ...rest, ...only } : { ...rest, anyOf: kept },
      ];
    }),
  );
  // The Overwrite definitions nothing refers to any more go too.
  const text = JSON.stringify(properties);
  const kept = Object.entries(definitions).filter(
    ([name]) =>
      !isOverwriteRef({ $ref: `#/definitions/${name}` }, definitions) || text.includes(name),
  );
  const { definitions: _all, ...rest } = schema;
  return {
    ...rest,
    properties,
    ...(kept.length > 0 && { definitions: Object.fromEntries(kept) }),
  };
}

/** A graph's schemas as the official JS server lists a subgraph's (`GET .../subgraphs`). */
export interface ExtractedSchemas {
  state: JsonObject;
  input: JsonObject;
  output: JsonObject;
  config: JsonObject;
}

/** The extractor's schemas; one the graph does not define is an open object. */
function extracted(schema: GraphSchema | undefined): ExtractedSchemas {
  const object = (value: unknown) => (isRecord(value) ? value : undefined);
  return {
    state: withoutOverwrite(schema?.state) ?? EMPTY_SCHEMAS.state_schema,
    input: object(schema?.input) ?? EMPTY_SCHEMAS.input_schema,
    output: object(schema?.output) ?? EMPTY_SCHEMAS.output_schema,
    config: object(schema?.config) ?? EMPTY_SCHEMAS.config_schema,
  };
}

/**
 * The form of `GET /assistants/{id}/schemas`. As on the official JS server, the context schema is
 * the config schema (a JS graph's `configSchema` and `contextSchema` are one).
 */
export const toWireSchemas = (schemas: ExtractedSchemas): GraphSchemas => ({
  input_schema: schemas.input,
  output_schema: schemas.output,
  state_schema: schemas.state,
  config_schema: schemas.config,
  context_schema: schemas.config,
});

/**
 * The schemas of a langgraph.json's graphs, extracted by the official server's own extractor
 * (`@langchain/langgraph-api/schema`), in its order: from the compiled graph at run time
 * (StateSchema, zod with its registry, plain zod), else from the graph's TypeScript types (for
 * `Annotation` graphs). The TypeScript parse of all graphs at once runs in a worker thread and
 * takes seconds, so it starts with `warm()` and its result is kept.
 */
export function createGraphSchemas(
  sources: Record<string, GraphSource>,
  options: { timeoutMs: number; dispose?: () => Promise<void>; onError?: (error: unknown) => void },
) {
  let parsed: Promise<Record<string, Record<string, GraphSchema>>> | undefined;
  const staticSchemas = () =>
    (parsed ??= getStaticGraphSchema(sources, { timeoutMs: options.timeoutMs })
      .catch((error: unknown): Record<string, Record<string, GraphSchema>> => {
        options.onError?.(error);
        return {};
      })
      .finally(() => void options.dispose?.()));

  return {
    /** Starts the TypeScript parse (at start-up, so the first `schemas` request finds it done). */
    warm: (): Promise<unknown> => staticSchemas(),
    /** The schemas of graph `graphId`, or of its subgraph at `namespace` (`a|b` for nested ones). */
    async of(graphId: string, graph: SchemaGraph, namespace?: string): Promise<ExtractedSchemas> {
      const runtime = await getRuntimeGraphSchema(graph);
      if (runtime) return extracted(runtime);
      const byNamespace = (await staticSchemas())[graphId] ?? {};
      // The parser keys the root by its export name and a subgraph as `<root>|<namespace>`.
      const root = Object.keys(byNamespace).find((key) => !key.includes('|'));
      if (root === undefined) return extracted(undefined);
      return extracted((namespace && byNamespace[`${root}|${namespace}`]) || byNamespace[root]);
    },
  };
}

export type LoadedGraphSchemas = ReturnType<typeof createGraphSchemas>;

/** 2 min: the parse of a dozen graphs takes 10-20 s on a loaded 2-core machine. */
const PARSE_TIMEOUT_MS = 120_000;

/**
 * Gives each loaded graph its `schemasOf` and starts the TypeScript parse for the graphs whose
 * schemas cannot be read at run time. `ready` settles once it is done (it never rejects: a failed
 * parse is reported through `onError`, and those graphs answer open objects).
 */
export async function withLoadedSchemas(
  graphs: ServedGraph[],
  specs: Record<string, string>,
  dirs: { baseDir: string; repoRoot: string },
  onError: (error: unknown) => void,
): Promise<{ graphs: ServedGraph[]; ready: Promise<unknown> }> {
  const parsed: ServedGraph[] = [];
  for (const graph of graphs) {
    if (!(await getRuntimeGraphSchema(graph.runtime))) parsed.push(graph);
  }
  const project = parsed.length > 0 ? await schemaProjectFor(dirs.baseDir, dirs.repoRoot) : null;
  const sources = Object.fromEntries(
    parsed.flatMap(({ graphId }) => {
      const spec = specs[graphId];
      if (!project || spec === undefined) return [];
      const separator = spec.lastIndexOf(':');
      const file = path.relative(
        dirs.baseDir,
        path.resolve(dirs.baseDir, spec.slice(0, separator)),
      );
      const source = {
        sourceFile: path.join(project.dir, file),
        exportSymbol: spec.slice(separator + 1),
      };
      return [[graphId, source]];
    }),
  );
  const schemas = createGraphSchemas(sources, {
    timeoutMs: PARSE_TIMEOUT_MS,
    dispose: project?.dispose,
    onError,
  });
  return {
    graphs: graphs.map((graph) => ({
      ...graph,
      schemasOf: (subgraph: SchemaGraph, namespace?: string) =>
        schemas.of(graph.graphId, subgraph, namespace),
    })),
    ready: parsed.length > 0 ? schemas.warm() : Promise.resolve(),
  };
}
