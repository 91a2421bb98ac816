import type { AgentGraph } from './agent-graph';
import type { ExtractedSchemas, SchemaGraph } from './graph-schemas';

/** A run's or thread's config as a graph factory receives it (`configurable`, `tags`, ...). */
export type GraphConfig = Record<string, unknown> & { configurable?: Record<string, unknown> };

/** What the thread and assistant endpoints need from a compiled graph. */
export type ServedGraphRuntime = Pick<
  AgentGraph,
  | 'getState'
  | 'getStateHistory'
  | 'updateState'
  | 'bulkUpdateState'
  | 'getGraphAsync'
  | 'getSubgraphsAsync'
>;

/** JSON Schemas (draft-07) the assistant `schemas` endpoint answers for a graph. */
export interface GraphSchemas {
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  state_schema: Record<string, unknown>;
  config_schema: Record<string, unknown>;
  context_schema: Record<string, unknown>;
}

export interface ServedGraph {
  graphId: string;
  /** The compiled graph; a loaded one is typed as the demo graph (see langgraph-config.ts). */
  runtime: AgentGraph;
  schemas: GraphSchemas;
  /**
   * A graph loaded from a langgraph.json: its input is passed through as sent, and it is stopped
   * through the run's AbortSignal (it does not know our stop signals).
   */
  foreign?: boolean;
  /**
   * Set when the langgraph.json export is a graph factory: the graph of a run, a thread or an
   * assistant is built from its config, as the official server does (`runtime` is built from {}).
   */
  build?: (config: GraphConfig) => Promise<AgentGraph>;
  /** A loaded graph's schemas (or its subgraph's at `namespace`), extracted from its code. */
  schemasOf?: (graph: SchemaGraph, namespace?: string) => Promise<ExtractedSchemas>;
}

const OPEN_OBJECT = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' };

/** What a loaded graph answers on `schemas`: open objects (its schemas are not extracted). */
export const EMPTY_SCHEMAS: GraphSchemas = {
  input_schema: OPEN_OBJECT,
  output_schema: OPEN_OBJECT,
  state_schema: OPEN_OBJECT,
  config_schema: OPEN_OBJECT,
  context_schema: OPEN_OBJECT,
};

/**
 * The graphs this server serves, by graph id: the demo `agent`, or those of a langgraph.json. The first graph is the default for threads whose
 * metadata names no served graph.
 */
export function createGraphRegistry(
  graphs: readonly ServedGraph[],
  /** The config of a thread's latest run, from which a factory graph of the thread is rebuilt. */
  threadConfig: (threadId: string) => Promise<GraphConfig | undefined> = async () => undefined,
) {
  const byId = new Map(graphs.map((graph) => [graph.graphId, graph]));
  const first = graphs[0];
  if (!first) throw new Error('a deployment serves at least one graph');

  /** The graph as built for `config` (the same graph unless it comes from a factory). */
  async function withConfig(served: ServedGraph, config: GraphConfig): Promise<ServedGraph> {
    return served.build ? { ...served, runtime: await served.build(config) } : served;
  }

  return {
    ids: (): string[] => [...byId.keys()],
    get: (graphId: string): ServedGraph | undefined => byId.get(graphId),
    /** The graph a run executes: its assistant's, else the default. */
    forGraphId: (graphId: string): ServedGraph => byId.get(graphId) ?? first,
    withConfig,
    /**
     * The graph of every thread when the thread need not be read to know it: one graph is served
     * and it is not a factory. A thread's state can then be read alongside its record.
     */
    sole: (): ServedGraph | undefined => (byId.size === 1 && !first.build ? first : undefined),
    /**
     * The graph a thread belongs to: its `metadata.graph_id` when served, else the default; a
     * factory graph is rebuilt with the config of the thread's latest run (its nodes may depend
     * on it, and a state update names one of them).
     */
    async forThread(thread: { thread_id: string; metadata: Record<string, unknown> }) {
      const graphId = thread.metadata.graph_id;
      const served = (typeof graphId === 'string' && byId.get(graphId)) || first;
      // Only a factory needs the config: the latest run is read (and parsed) for it alone.
      return served.build
        ? withConfig(served, (await threadConfig(thread.thread_id)) ?? {})
        : served;
    },
  };
}

export type GraphRegistry = ReturnType<typeof createGraphRegistry>;
