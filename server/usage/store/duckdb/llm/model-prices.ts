import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ModelPrice } from '@contracts/usage/model-price-map';
import type { ModelPriceBody } from '@contracts/usage/model-price-body';
import {
  ModelPriceConflictError,
  modelPriceFromBody,
  parseStoredModelPrice,
  sameConditions,
} from '@server/usage/model/model-price-entry';

/** The own entries of `workspaceIds`, oldest first. */
export async function loadModelPrices(
  connection: DuckDBConnection,
  workspaceIds: readonly string[],
): Promise<ModelPrice[]> {
  if (workspaceIds.length === 0) return [];
  const reader = await connection.runAndReadAll(
    `SELECT entry FROM model_prices
     WHERE list_contains(string_split($1, ','), workspace_id::VARCHAR) ORDER BY created_at, id`,
    [workspaceIds.join(',')],
  );
  return reader
    .getRowsJS()
    .map(([entry]) => parseStoredModelPrice(String(entry)))
    .filter((entry): entry is ModelPrice => entry !== undefined);
}

/** Adds an entry; throws `ModelPriceConflictError` when one has the same match conditions. */
export async function createModelPrice(
  connection: DuckDBConnection,
  workspaceId: string,
  body: ModelPriceBody,
): Promise<ModelPrice> {
  const entry = modelPriceFromBody(randomUUID(), workspaceId, body);
  const existing = await loadModelPrices(connection, [workspaceId]);
  if (existing.some((other) => sameConditions(other, entry))) {
    throw new ModelPriceConflictError('An entry with the same match conditions exists.');
  }
  await connection.run(
    'INSERT INTO model_prices VALUES ($1::UUID, $2::UUID, $3, current_timestamp::TIMESTAMP)',
    [entry.id, workspaceId, JSON.stringify(entry)],
  );
  return entry;
}

export async function replaceModelPrice(
  connection: DuckDBConnection,
  workspaceId: string,
  id: string,
  body: ModelPriceBody,
): Promise<ModelPrice | undefined> {
  const existing = await loadModelPrices(connection, [workspaceId]);
  if (!existing.some((other) => other.id === id)) return undefined;
  const entry = modelPriceFromBody(id, workspaceId, body);
  if (existing.some((other) => other.id !== id && sameConditions(other, entry))) {
    throw new ModelPriceConflictError('An entry with the same match conditions exists.');
  }
  await connection.run('UPDATE model_prices SET entry = $1 WHERE id = $2::UUID', [
    JSON.stringify(entry),
    id,
  ]);
  return entry;
}

export async function removeModelPrice(
  connection: DuckDBConnection,
  workspaceId: string,
  id: string,
): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    'DELETE FROM model_prices WHERE id = $1::UUID AND workspace_id = $2::UUID RETURNING id',
    [id, workspaceId],
  );
  return reader.getRowsJS().length > 0;
}
