import type { Pool } from 'pg';
import type { TraceTier } from '@contracts/usage/usage-schema';
import { ensureProjectRows } from './ensure-projects';

/**
 * Sets the default retention tier of project `name` (created when missing); traces ingested
 * afterwards take it, stored ones keep theirs. Returns the project's id.
 */
export async function setProjectTier(
  pool: Pool,
  workspaceId: string,
  name: string,
  tier: TraceTier,
): Promise<string> {
  const id = (await ensureProjectRows(pool, workspaceId, [name])).get(name)?.id;
  if (id === undefined) throw new Error(`project ${name} was not created`);
  await pool.query('UPDATE usage.projects SET trace_tier = $1 WHERE id = $2', [tier, id]);
  return id;
}
