import type { AgentGraph } from './agent-graph';

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
  runtime: ServedGraphRuntime;
  schemas: GraphSchemas;
}

/**
 * The graphs this server serves, by graph id. Today one (`agent`); a later loader of
 * `langgraph.json` registers more the same way. The first graph is the default for threads whose
 * metadata names no served graph.
 */
export function createGraphRegistry(graphs: readonly ServedGraph[]) {
  const byId = new Map(graphs.map((graph) => [graph.graphId, graph]));
  const first = graphs[0];
  if (!first) throw new Error('a deployment serves at least one graph');
  return {
    ids: (): string[] => [...byId.keys()],
    get: (graphId: string): ServedGraph | undefined => byId.get(graphId),
    /** The graph a thread belongs to: its `metadata.graph_id` when served, else the default. */
    forThread(metadata: Record<string, unknown>): ServedGraph {
      const graphId = metadata.graph_id;
      return (typeof graphId === 'string' && byId.get(graphId)) || first;
    },
  };
}

export type GraphRegistry = ReturnType<typeof createGraphRegistry>;
