import type Database from 'better-sqlite3';
import type { TruncateFlags } from '../records';

/** The tables each flag of `POST /internal/truncate` empties. */
const TABLES = {
  runs: ['DELETE FROM runs'],
  threads: ['DELETE FROM runs', 'DELETE FROM crons', 'DELETE FROM threads'],
  // System assistants (one per served graph) stay, as on the official dev server.
  assistants: [
    `DELETE FROM assistant_versions WHERE assistant_id IN (SELECT assistant_id FROM assistants
       WHERE json_extract(metadata, '$.created_by') IS NOT 'system')`,
    `DELETE FROM assistants WHERE json_extract(metadata, '$.created_by') IS NOT 'system'`,
  ],
  store: ['DELETE FROM store_items'],
  checkpoint: ['DELETE FROM checkpoints', 'DELETE FROM writes'],
} as const;

/** Empties the tables the flags name, in one transaction. */
export function createSqliteTruncate(db: Database.Database) {
  return async (flags: TruncateFlags): Promise<void> => {
    const statements = Object.entries(TABLES)
      .filter(([flag]) => flags[flag as keyof TruncateFlags] === true)
      .flatMap(([, sql]) => sql);
    db.transaction(() => statements.forEach((sql) => db.prepare(sql).run()))();
  };
}
