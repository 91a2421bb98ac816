import type { DuckDBConnection } from '@duckdb/node-api';
import type { SeedDimensions } from '@server/usage/seed/build-dimensions';
import { demoKeyOwnersSql } from './demo-key-owners-sql';
import { DEMO_KEY_GRANTS } from '@server/usage/seed/demo-keys';
import { insertRows } from './insert-rows';
import { hashApiKey } from '@server/usage/store/api-key-hash';

const SLOTS = 1000;

/**
 * Writes the dimension tables and the demo credentials, plus TEMP staging tables (`seed_*`,
 * with integer indexes) that the trace generator joins against.
 */
export async function insertDimensions(
  connection: DuckDBConnection,
  dims: SeedDimensions,
  createdAt: string,
): Promise<void> {
  await connection.run(`
    CREATE OR REPLACE TEMP TABLE seed_ws (idx INTEGER, id UUID, name VARCHAR,
      n_projects INTEGER, n_users INTEGER, n_keys INTEGER);
    CREATE OR REPLACE TEMP TABLE seed_slots (slot INTEGER, ws_idx INTEGER);
    CREATE OR REPLACE TEMP TABLE seed_projects (ws_idx INTEGER, local_idx INTEGER, id UUID, name VARCHAR);
    CREATE OR REPLACE TEMP TABLE seed_users (ws_idx INTEGER, local_idx INTEGER, id UUID, email VARCHAR);
    CREATE OR REPLACE TEMP TABLE seed_keys (ws_idx INTEGER, local_idx INTEGER, id UUID,
      short_key VARCHAR, description VARCHAR);
    CREATE OR REPLACE TEMP TABLE seed_days (day_idx INTEGER, day DATE, n INTEGER);`);
  const count = (rows: { wsIdx: number }[], idx: number) =>
    rows.filter((row) => row.wsIdx === idx).length;
  await insertRows(
    connection,
    'seed_ws',
    ['INTEGER', 'UUID', 'VARCHAR', 'INTEGER', 'INTEGER', 'INTEGER'],
    dims.workspaces.map((ws) => [
      ws.idx,
      ws.id,
      ws.name,
      count(dims.projects, ws.idx),
      count(dims.users, ws.idx),
      count(dims.apiKeys, ws.idx),
    ]),
  );
  await insertRows(connection, 'seed_slots', ['INTEGER', 'INTEGER'], weightedSlots(dims));
  await insertRows(
    connection,
    'seed_projects',
    ['INTEGER', 'INTEGER', 'UUID', 'VARCHAR'],
    dims.projects.map((p) => [p.wsIdx, p.localIdx, p.id, p.name]),
  );
  await insertRows(
    connection,
    'seed_users',
    ['INTEGER', 'INTEGER', 'UUID', 'VARCHAR'],
    dims.users.map((u) => [u.wsIdx, u.localIdx, u.id, u.email]),
  );
  await insertRows(
    connection,
    'seed_keys',
    ['INTEGER', 'INTEGER', 'UUID', 'VARCHAR', 'VARCHAR'],
    dims.apiKeys.map((k) => [k.wsIdx, k.localIdx, k.id, k.shortKey, k.description]),
  );
  await connection.run(
    'INSERT INTO workspaces SELECT id, name, false, $1::TIMESTAMP + to_minutes(idx) FROM seed_ws',
    [createdAt],
  );
  await connection.run(`
    INSERT INTO projects SELECT p.id, w.id, p.name FROM seed_projects p JOIN seed_ws w ON w.idx = p.ws_idx;
    INSERT INTO users SELECT id, email FROM seed_users;
    INSERT INTO api_keys SELECT k.id, w.id, k.short_key, k.description
      FROM seed_keys k JOIN seed_ws w ON w.idx = k.ws_idx;`);
  await insertAuthKeys(connection, dims);
}

/** Spreads 1000 slots over the workspaces by weight: a trace picks slot `hash % 1000`. */
function weightedSlots(dims: SeedDimensions): number[][] {
  const total = dims.workspaces.reduce((sum, ws) => sum + ws.weight, 0);
  const slots: number[][] = [];
  let cumulative = 0;
  for (const ws of dims.workspaces) {
    cumulative += ws.weight;
    const until = ws === dims.workspaces.at(-1) ? SLOTS : Math.round((cumulative / total) * SLOTS);
    while (slots.length < until) slots.push([slots.length, ws.idx]);
  }
  return slots;
}

async function insertAuthKeys(connection: DuckDBConnection, dims: SeedDimensions): Promise<void> {
  for (const grant of DEMO_KEY_GRANTS) {
    const keyHash = hashApiKey(grant.key);
    await connection.run(`INSERT INTO auth_keys VALUES ($1, $2, string_split($3, ','))`, [
      keyHash,
      grant.label,
      grant.permissions.join(','),
    ]);
    const readable = dims.workspaces.filter(
      (ws) => grant.workspaces === 'all' || grant.workspaces.includes(ws.idx),
    );
    await insertRows(
      connection,
      'auth_key_workspaces',
      ['VARCHAR', 'UUID', 'VARCHAR', 'BOOLEAN'],
      readable.map((ws) => [keyHash, ws.id, grant.roleName, grant.readOnly]),
    );
  }
  await connection.run(demoKeyOwnersSql());
}
