import { createHash } from 'node:crypto';

/** LangGraph Platform derives a graph's default assistant id as uuid5(graph_id, this namespace). */
const GRAPH_NAMESPACE = '6ba7b821-9dad-11d1-80b4-00c04fd430c8';

/** RFC 4122 version-5 UUID (SHA-1 of namespace bytes + name). */
export function uuid5(name: string, namespace: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name)
    .digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface Assistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  version: number;
  created_at: string;
  updated_at: string;
}

/** The built-in assistants: one per graph, with the id LangGraph Platform would give it. */
export function createAssistantRegistry(graphIds: readonly string[], createdAt: string) {
  const assistants: Assistant[] = graphIds.map((graphId) => ({
    assistant_id: uuid5(graphId, GRAPH_NAMESPACE),
    graph_id: graphId,
    name: graphId,
    description: null,
    config: {},
    context: {},
    metadata: { created_by: 'system' },
    version: 1,
    created_at: createdAt,
    updated_at: createdAt,
  }));

  return {
    all: (): readonly Assistant[] => assistants,
    /** `assistant_id` may be an assistant id or a graph name, as on LangGraph Platform. */
    resolve: (idOrGraph: string): Assistant | undefined =>
      assistants.find((a) => a.assistant_id === idOrGraph || a.graph_id === idOrGraph),
  };
}

export type AssistantRegistry = ReturnType<typeof createAssistantRegistry>;
