import type pg from 'pg';
import type { AssistantStore } from '../deployment-store';
import { assistantColumns, type Assistant, type AssistantVersion } from '../records';
import { inTransaction } from '@server/db/postgres';

type VersionRow = Omit<AssistantVersion, 'created_at'> & { created_at: Date };
type AssistantRow = VersionRow & { updated_at: Date };

const FIELDS = 'assistant_id, graph_id, name, description, config, context, metadata, version';

const parseVersion = (row: VersionRow): AssistantVersion => ({
  ...row,
  created_at: row.created_at.toISOString(),
});
const parse = (row: AssistantRow): Assistant => ({
  ...parseVersion(row),
  updated_at: row.updated_at.toISOString(),
});

const UPSERT = `INSERT INTO deployment.assistants (${FIELDS}, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  ON CONFLICT (assistant_id) DO UPDATE SET graph_id = excluded.graph_id, name = excluded.name,
    description = excluded.description, config = excluded.config, context = excluded.context,
    metadata = excluded.metadata, version = excluded.version, updated_at = excluded.updated_at`;

/** Assistants and their versions in `deployment.assistants` / `assistant_versions`. */
export function createPostgresAssistantStore(pool: pg.Pool): AssistantStore {
  const save = (db: pg.ClientBase | pg.Pool, assistant: Assistant) =>
    db.query(UPSERT, [...assistantColumns(assistant), assistant.created_at, assistant.updated_at]);

  return {
    async get(assistantId) {
      const { rows } = await pool.query<AssistantRow>(
        `SELECT ${FIELDS}, created_at, updated_at FROM deployment.assistants WHERE assistant_id = $1`,
        [assistantId],
      );
      return rows[0] && parse(rows[0]);
    },
    async all() {
      const { rows } = await pool.query<AssistantRow>(
        `SELECT ${FIELDS}, created_at, updated_at FROM deployment.assistants
         ORDER BY created_at DESC, seq DESC`,
      );
      return rows.map(parse);
    },
    async versions(assistantId) {
      const { rows } = await pool.query<VersionRow>(
        `SELECT ${FIELDS}, created_at FROM deployment.assistant_versions WHERE assistant_id = $1
         ORDER BY version DESC`,
        [assistantId],
      );
      return rows.map(parseVersion);
    },
    async version(assistantId, version) {
      const { rows } = await pool.query<VersionRow>(
        `SELECT ${FIELDS}, created_at FROM deployment.assistant_versions
         WHERE assistant_id = $1 AND version = $2`,
        [assistantId, version],
      );
      return rows[0] && parseVersion(rows[0]);
    },
    saveVersion: (assistant) =>
      inTransaction(pool, async (client) => {
        await save(client, assistant);
        await client.query(
          `INSERT INTO deployment.assistant_versions (${FIELDS}, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [...assistantColumns(assistant), assistant.updated_at],
        );
        return assistant;
      }),
    createIfAbsent: (assistant) =>
      inTransaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `INSERT INTO deployment.assistants (${FIELDS}, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT (assistant_id) DO NOTHING`,
          [...assistantColumns(assistant), assistant.created_at, assistant.updated_at],
        );
        // Another replica created it first: its row and version stay.
        if (!rowCount) return;
        await client.query(
          `INSERT INTO deployment.assistant_versions (${FIELDS}, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [...assistantColumns(assistant), assistant.updated_at],
        );
      }),
    async setCurrent(assistant) {
      await save(pool, assistant);
      return assistant;
    },
    delete: (assistantId) =>
      inTransaction(pool, async (client) => {
        await client.query('DELETE FROM deployment.assistant_versions WHERE assistant_id = $1', [
          assistantId,
        ]);
        const { rowCount } = await client.query(
          'DELETE FROM deployment.assistants WHERE assistant_id = $1',
          [assistantId],
        );
        return (rowCount ?? 0) > 0;
      }),
  };
}
