import type { DuckDBConnection } from '@duckdb/node-api';
import { stableUuid } from '@server/usage/seed/stable-uuid';

const projectKey = (workspaceId: string, name: string) => `${workspaceId}\u0000${name}`;

/**
 * Ids of the projects named by runs (`session_name`), per workspace, in the caller's
 * transaction. A name not yet in the workspace is created with a stable id (the same name always
 * gets the same id). `known` holds committed projects (never deleted), so a batch whose projects
 * are all known costs no statement; the ones found or created here go to `created`, for the
 * caller to add to `known` once committed.
 */
export async function ensureProjects(
  connection: DuckDBConnection,
  wanted: { workspaceId: string; name: string }[],
  known: ReadonlyMap<string, string>,
  created: Map<string, string>,
): Promise<(workspaceId: string, name: string) => string> {
  const missing = new Map<string, { workspaceId: string; name: string }>();
  for (const project of wanted) {
    const key = projectKey(project.workspaceId, project.name);
    if (!known.has(key)) missing.set(key, project);
  }
  if (missing.size > 0) {
    const rows = [...missing.values()].map(({ workspaceId, name }) => ({
      workspace_id: workspaceId,
      name,
      id: stableUuid('ingested-project', workspaceId, name),
    }));
    const list = `(SELECT unnest(from_json($1,
      '[{"workspace_id": "VARCHAR", "name": "VARCHAR", "id": "VARCHAR"}]'), recursive := true))`;
    await connection.run(
      `INSERT INTO projects (id, workspace_id, name) SELECT w.id::UUID, w.workspace_id::UUID, w.name FROM ${list} w
       WHERE NOT EXISTS (SELECT 1 FROM projects p
         WHERE p.workspace_id = w.workspace_id::UUID AND p.name = w.name)`,
      [JSON.stringify(rows)],
    );
    // Seeded names may repeat inside a workspace; the smallest id is the stable choice.
    const reader = await connection.runAndReadAll(
      `SELECT p.workspace_id::VARCHAR, p.name, min(p.id)::VARCHAR FROM projects p
       JOIN ${list} w ON p.workspace_id = w.workspace_id::UUID AND p.name = w.name GROUP BY ALL`,
      [JSON.stringify(rows)],
    );
    for (const [workspaceId, name, id] of reader.getRowsJS()) {
      created.set(projectKey(String(workspaceId), String(name)), String(id));
    }
  }
  return (workspaceId, name) => {
    const key = projectKey(workspaceId, name);
    const id = known.get(key) ?? created.get(key);
    if (!id) throw new Error(`Project ${name} was not created.`);
    return id;
  };
}

/** The ids of `names` in one workspace, each created when missing, in a transaction of its own. */
export async function ensureNamedProjects(
  connection: DuckDBConnection,
  workspaceId: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const wanted = names.map((name) => ({ workspaceId, name }));
    const idOf = await ensureProjects(connection, wanted, new Map(), new Map());
    await connection.run('COMMIT');
    return new Map(names.map((name) => [name, idOf(workspaceId, name)]));
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
