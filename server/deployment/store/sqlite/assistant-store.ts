import type Database from 'better-sqlite3';
import type { AssistantStore } from '../deployment-store';
import { assistantColumns, type Assistant, type AssistantVersion } from '../records';

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
export function createSqliteAssistantStore(db: Database.Database): AssistantStore {
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

  /** Makes `version` the assistant's current state (and saves it as a version when new). */
  const save = (assistant: Assistant, isNewVersion: boolean) => {
    upsert.run(...assistantColumns(assistant), assistant.created_at, assistant.updated_at);
    if (isNewVersion) insertVersion.run(...assistantColumns(assistant), assistant.updated_at);
    return assistant;
  };

  const saveVersion = db.transaction((assistant: Assistant) => save(assistant, true));
  const remove_ = db.transaction((assistantId: string): boolean => {
    removeVersions.run(assistantId);
    return remove.run(assistantId).changes > 0;
  });

  return {
    async get(assistantId) {
      const row = selectOne.get(assistantId);
      return row && parse<Assistant>(row);
    },
    all: async () => selectAll.all().map((row) => parse<Assistant>(row)),
    versions: async (assistantId) =>
      selectVersions.all(assistantId).map((row) => parse<AssistantVersion>(row)),
    async version(assistantId, version) {
      const row = selectVersion.get(assistantId, version);
      return row && parse<AssistantVersion>(row);
    },
    saveVersion: async (assistant) => saveVersion(assistant),
    // One process: the check and the save run without a turn of the event loop between them.
    async createIfAbsent(assistant) {
      if (!selectOne.get(assistant.assistant_id)) saveVersion(assistant);
    },
    setCurrent: async (assistant) => save(assistant, false),
    delete: async (assistantId) => remove_(assistantId),
  };
}
