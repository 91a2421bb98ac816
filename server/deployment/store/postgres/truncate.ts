import type pg from 'pg';
import type { TruncateFlags } from '../records';
import { inTransaction } from '@server/db/postgres';

/** The statements each flag of `POST /internal/truncate` runs. */
const STATEMENTS = {
  runs: ['DELETE FROM deployment.runs'],
  threads: [
    'DELETE FROM deployment.runs',
    'DELETE FROM deployment.crons',
    'DELETE FROM deployment.threads',
  ],
  // System assistants (one per served graph) stay, as on the official dev server.
  assistants: [
    `DELETE FROM deployment.assistant_versions WHERE assistant_id IN (
       SELECT assistant_id FROM deployment.assistants
       WHERE metadata ->> 'created_by' IS DISTINCT FROM 'system')`,
    `DELETE FROM deployment.assistants WHERE metadata ->> 'created_by' IS DISTINCT FROM 'system'`,
  ],
  store: ['DELETE FROM deployment.store_items'],
  checkpoint: [
    'DELETE FROM deployment.checkpoint_writes',
    'DELETE FROM deployment.checkpoint_blobs',
    'DELETE FROM deployment.checkpoints',
  ],
} as const;

/** Empties what the flags name, in one transaction. */
export function createPostgresTruncate(pool: pg.Pool) {
  return (flags: TruncateFlags) =>
    inTransaction(pool, async (client) => {
      for (const [flag, statements] of Object.entries(STATEMENTS)) {
        if (flags[flag as keyof TruncateFlags] !== true) continue;
        for (const sql of statements) await client.query(sql);
      }
    });
}
