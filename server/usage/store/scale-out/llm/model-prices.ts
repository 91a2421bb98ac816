import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { ModelPrice } from '@contracts/usage/model-price-map';
import type { ModelPriceBody } from '@contracts/usage/model-price-body';
import {
  ModelPriceConflictError,
  modelPriceFromBody,
  parseStoredModelPrice,
} from '@server/usage/model/model-price-entry';

/** The match conditions of an entry as one text (unique per workspace). */
const conditions = (entry: ModelPrice) =>
  JSON.stringify([
    entry.name,
    entry.match_pattern,
    entry.match_path,
    entry.provider,
    entry.start_time,
  ]);

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';

/** The own entries of `workspaceIds`, oldest first. */
export async function loadModelPrices(
  pool: Pool,
  workspaceIds: readonly string[],
): Promise<ModelPrice[]> {
  if (workspaceIds.length === 0) return [];
  const result = await pool.query<{ entry: string }>(
    `SELECT entry FROM usage.model_prices WHERE workspace_id = ANY($1::uuid[])
     ORDER BY created_at, id`,
    [workspaceIds],
  );
  return result.rows
    .map((row) => parseStoredModelPrice(row.entry))
    .filter((entry): entry is ModelPrice => entry !== undefined);
}

export async function createModelPrice(
  pool: Pool,
  workspaceId: string,
  body: ModelPriceBody,
): Promise<ModelPrice> {
  const entry = modelPriceFromBody(randomUUID(), workspaceId, body);
  try {
    await pool.query(
      `INSERT INTO usage.model_prices (id, workspace_id, conditions, entry)
       VALUES ($1, $2, $3, $4)`,
      [entry.id, workspaceId, conditions(entry), JSON.stringify(entry)],
    );
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ModelPriceConflictError('An entry with the same match conditions exists.');
    }
    throw error;
  }
  return entry;
}

export async function replaceModelPrice(
  pool: Pool,
  workspaceId: string,
  id: string,
  body: ModelPriceBody,
): Promise<ModelPrice | undefined> {
  const entry = modelPriceFromBody(id, workspaceId, body);
  try {
    const result = await pool.query(
      `UPDATE usage.model_prices SET conditions = $3, entry = $4
       WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId, conditions(entry), JSON.stringify(entry)],
    );
    return result.rowCount === 0 ? undefined : entry;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ModelPriceConflictError('An entry with the same match conditions exists.');
    }
    throw error;
  }
}

export async function removeModelPrice(
  pool: Pool,
  workspaceId: string,
  id: string,
): Promise<boolean> {
  const result = await pool.query(
    'DELETE FROM usage.model_prices WHERE id = $1 AND workspace_id = $2',
    [id, workspaceId],
  );
  return (result.rowCount ?? 0) > 0;
}
