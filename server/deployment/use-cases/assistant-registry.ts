import { createHash, randomUUID } from 'node:crypto';
import type { AssistantStore } from '../store/deployment-store';
import type { Assistant, AssistantVersion } from '../store/records';
import { jsonContains } from '../wire/json-contains';

export type { Assistant } from '../store/records';

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

export const systemAssistantId = (graphId: string) => uuid5(graphId, GRAPH_NAMESPACE);

export interface NewAssistant {
  assistant_id?: string | null;
  graph_id: string;
  name?: string | null;
  description?: string | null;
  config?: Record<string, unknown> | null;
  context?: unknown;
  metadata?: Record<string, unknown> | null;
}

export type AssistantPatch = Partial<Omit<NewAssistant, 'assistant_id' | 'graph_id'>> & {
  graph_id?: string | null;
};

export interface AssistantQuery {
  graph_id?: string | null;
  name?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** Whether an assistant matches a search: graph exactly, name as a case-insensitive substring. */
export function matchesQuery(assistant: Assistant, query: AssistantQuery): boolean {
  return (
    (!query.graph_id || assistant.graph_id === query.graph_id) &&
    (!query.name || assistant.name.toLowerCase().includes(query.name.toLowerCase())) &&
    (!query.metadata || jsonContains(assistant.metadata, query.metadata))
  );
}

/**
 * The assistants of this deployment. A graph id stands for its system assistant wherever an
 * assistant id is expected (`idOrGraph`), as on the platform.
 */
export interface AssistantRegistry {
  /** The assistant id a path names: a served graph's system assistant for its graph id. */
  idOf(idOrGraph: string): string;
  isServed(graphId: string): boolean;
  get(idOrGraph: string): Promise<Assistant | undefined>;
  /** The assistant a run names, when its graph is one this server serves. */
  resolve(idOrGraph: string): Promise<Assistant | undefined>;
  search(query: AssistantQuery): Promise<Assistant[]>;
  /** `undefined` when the id is taken (the caller decides between 409 and the existing one). */
  create(input: NewAssistant): Promise<Assistant | undefined>;
  /** A new version: given fields replace, metadata merges, the rest carries over. */
  update(idOrGraph: string, patch: AssistantPatch): Promise<Assistant | undefined>;
  /** Makes a stored version current; `'no-version'` when the assistant has no such version. */
  setLatest(assistantId: string, version: number): Promise<Assistant | 'no-version' | undefined>;
  versions(assistantId: string): Promise<AssistantVersion[]>;
  delete(assistantId: string): Promise<boolean>;
}

/**
 * Assistants over the served graphs: one system assistant per graph (created at start, with the
 * id the platform gives it) and any number created through the API. A graph id stands for its
 * system assistant wherever an assistant id is expected, as on the platform.
 */
export async function createAssistantRegistry(
  store: AssistantStore,
  graphIds: readonly string[],
  /** A system assistant's `config` and `context` per graph (`LANGGRAPH_CONFIG` of langgraph.json). */
  defaults: Record<string, { config?: Record<string, unknown>; context?: unknown }> = {},
): Promise<AssistantRegistry> {
  const served = new Set(graphIds);
  for (const graphId of graphIds) {
    const now = new Date().toISOString();
    await store.createIfAbsent({
      assistant_id: systemAssistantId(graphId),
      graph_id: graphId,
      name: graphId,
      description: null,
      config: defaults[graphId]?.config ?? {},
      context: defaults[graphId]?.context ?? {},
      metadata: { created_by: 'system' },
      version: 1,
      created_at: now,
      updated_at: now,
    });
  }

  const idOf = (idOrGraph: string) =>
    served.has(idOrGraph) ? systemAssistantId(idOrGraph) : idOrGraph;

  return {
    idOf,
    isServed: (graphId: string) => served.has(graphId),
    get: (idOrGraph: string) => store.get(idOf(idOrGraph)),
    async resolve(idOrGraph: string): Promise<Assistant | undefined> {
      const assistant = await store.get(idOf(idOrGraph));
      return assistant && served.has(assistant.graph_id) ? assistant : undefined;
    },
    search: async (query: AssistantQuery) =>
      (await store.all()).filter((a) => matchesQuery(a, query)),

    async create(input: NewAssistant): Promise<Assistant | undefined> {
      const assistantId = input.assistant_id ?? randomUUID();
      if (await store.get(assistantId)) return undefined;
      const now = new Date().toISOString();
      return store.saveVersion({
        assistant_id: assistantId,
        graph_id: input.graph_id,
        // The official server's default name (its system assistants are named after the graph).
        name: input.name ?? 'Untitled',
        description: input.description ?? null,
        config: input.config ?? {},
        context: input.context ?? {},
        metadata: input.metadata ?? {},
        version: 1,
        created_at: now,
        updated_at: now,
      });
    },

    async update(idOrGraph: string, patch: AssistantPatch): Promise<Assistant | undefined> {
      const current = await store.get(idOf(idOrGraph));
      if (!current) return undefined;
      const versions = await store.versions(current.assistant_id);
      const highest = versions[0]?.version ?? current.version;
      return store.saveVersion({
        ...current,
        graph_id: patch.graph_id ?? current.graph_id,
        name: patch.name ?? current.name,
        description: patch.description ?? current.description,
        config: patch.config ?? current.config,
        context: patch.context ?? current.context,
        metadata: patch.metadata ? { ...current.metadata, ...patch.metadata } : current.metadata,
        version: highest + 1,
        updated_at: new Date().toISOString(),
      });
    },

    async setLatest(
      assistantId: string,
      version: number,
    ): Promise<Assistant | 'no-version' | undefined> {
      const current = await store.get(assistantId);
      if (!current) return undefined;
      const saved = await store.version(assistantId, version);
      if (!saved) return 'no-version';
      return store.setCurrent({
        ...saved,
        created_at: current.created_at,
        updated_at: new Date().toISOString(),
      });
    },

    versions: (assistantId: string) => store.versions(assistantId),
    delete: (assistantId: string) => store.delete(assistantId),
  };
}
