import type Database from 'better-sqlite3';

/** An assistant as the LangGraph API answers it (the fields of its current version). */
export interface Assistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: unknown;
  metadata: Record<string, unknown>;
  version: number;
  created_at: string;
  updated_at: string;
}

/** One saved version; `update` adds one, `setLatest` makes an older one current again. */
export type AssistantVersion = Omit<Assistant, 'updated_at'>;

type Row<T> = Omit<T, 'config' | 'context' | 'metadata'> & {
  config: string;
  context: string;
  metadata: string;
};

function parse<T>(row: Row<T>): T {
  return {
    ...row,
    config: JSON.parse(row.config) as unknown,
    context: JSON.parse(row.context) as unknown,
    metadata: JSON.parse(row.metadata) as unknown,
  } as T;
}

const FIELDS = 'assistant_id, graph_id, name, description, config, context, metadata, version';

/** Assistants and their versions, in the deployment database next to threads and runs. */
export function createAssistantStore(db: Database.Database) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS assistants (
      assistant_id TEXT PRIMARY KEY, graph_id TEXT NOT NULL, name TEXT NOT NULL,
      description TEXT, config TEXT NOT NULL, context TEXT NOT NULL, metadata TEXT NOT NULL,
      version INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS assistant_versions (
      assistant_id TEXT NOT NULL, version INTEGER NOT NULL, graph_id TEXT NOT NULL,
      name TEXT NOT NULL, description TEXT, config TEXT NOT NULL, context TEXT NOT NULL,
      metadata TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (assistant_id, version)
    );
  `);
  const selectOne = db.prepare<[string], Row<Assistant>>(
    'SELECT * FROM assistants WHERE assistant_id = ?',
  );
  const selectAll = db.prepare<[], Row<Assistant>>(
    'SELECT * FROM assistants ORDER BY created_at DESC, rowid DESC',
  );
  const selectVersions = db.prepare<[string], Row<AssistantVersion>>(
    `SELECT ${FIELDS}, created_at FROM assistant_versions WHERE assistant_id = ?
     ORDER BY version DESC`,
  );
  const selectVersion = db.prepare<[string, number], Row<AssistantVersion>>(
    `SELECT ${FIELDS}, created_at FROM assistant_versions WHERE assistant_id = ? AND version = ?`,
  );
  const upsert = db.prepare(
    `INSERT INTO assistants (${FIELDS}, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (assistant_id) DO UPDATE SET graph_id = excluded.graph_id, name = excluded.name,
       description = excluded.description, config = excluded.config, context = excluded.context,
       metadata = excluded.metadata, version = excluded.version, updated_at = excluded.updated_at`,
  );
  const insertVersion = db.prepare(
    `INSERT INTO assistant_versions (${FIELDS}, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const remove = db.prepare<[string]>('DELETE FROM assistants WHERE assistant_id = ?');
  const removeVersions = db.prepare<[string]>(
    'DELETE FROM assistant_versions WHERE assistant_id = ?',
  );

  const columns = (a: AssistantVersion) => [
    a.assistant_id,
    a.graph_id,
    a.name,
    a.description,
    JSON.stringify(a.config),
    JSON.stringify(a.context ?? {}),
    JSON.stringify(a.metadata),
    a.version,
  ];

  /** Makes `version` the assistant's current state (and saves it as a version when new). */
  const save = (assistant: Assistant, isNewVersion: boolean) => {
    upsert.run(...columns(assistant), assistant.created_at, assistant.updated_at);
    if (isNewVersion) insertVersion.run(...columns(assistant), assistant.updated_at);
    return assistant;
  };

  return {
    get(assistantId: string): Assistant | undefined {
      const row = selectOne.get(assistantId);
      return row && parse(row);
    },
    /** Newest first. */
    all: (): Assistant[] => selectAll.all().map((row) => parse(row)),
    versions: (assistantId: string): AssistantVersion[] =>
      selectVersions.all(assistantId).map((row) => parse(row)),
    version(assistantId: string, version: number): AssistantVersion | undefined {
      const row = selectVersion.get(assistantId, version);
      return row && parse(row);
    },
    /** A new assistant, or a new version of one (`version` one above the highest saved). */
    saveVersion: db.transaction((assistant: Assistant) => save(assistant, true)),
    /** Points the assistant at a saved version without adding one. */
    setCurrent: (assistant: Assistant) => save(assistant, false),
    delete: db.transaction((assistantId: string): boolean => {
      removeVersions.run(assistantId);
      return remove.run(assistantId).changes > 0;
    }),
  };
}

export type AssistantStore = ReturnType<typeof createAssistantStore>;
