import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { ThreadStore } from '../deployment-store';
import type { ThreadRecord } from '../records';
import { inTransaction } from '@server/db/postgres';
import { metadataFilterSql } from './metadata-filter-sql';

interface ThreadRow {
  thread_id: string;
  created_at: Date;
  updated_at: Date;
  metadata: Record<string, unknown>;
}

const COLUMNS = 'thread_id, created_at, updated_at, metadata';

const toRecord = (row: ThreadRow): ThreadRecord => ({
  thread_id: row.thread_id,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  metadata: row.metadata,
});

/** Thread records in `deployment.threads`; a copy takes the checkpointer's three tables along. */
export function createPostgresThreadStore(pool: pg.Pool): ThreadStore {
  const get = async (threadId: string) => {
    const { rows } = await pool.query<ThreadRow>(
      `SELECT ${COLUMNS} FROM deployment.threads WHERE thread_id = $1`,
      [threadId],
    );
    return rows[0] && toRecord(rows[0]);
  };
  const insert = async (db: pg.ClientBase | pg.Pool, metadata: object, threadId: string) => {
    const now = new Date().toISOString();
    // ON CONFLICT DO NOTHING: two requests creating the same thread id race without an error.
    const { rows } = await db.query<ThreadRow>(
      `INSERT INTO deployment.threads (thread_id, created_at, updated_at, metadata)
       VALUES ($1, $2, $2, $3) ON CONFLICT (thread_id) DO NOTHING RETURNING ${COLUMNS}`,
      [threadId, now, JSON.stringify(metadata)],
    );
    return rows[0] && toRecord(rows[0]);
  };

  return {
    create: (metadata, threadId = randomUUID()) => insert(pool, metadata, threadId),
    get,
    async all(column, order, filter) {
      const direction = order === 'asc' ? 'ASC' : 'DESC';
      const where = filter ? metadataFilterSql(filter) : { sql: 'TRUE', params: [] };
      // The column is one of ThreadSortColumn (typed, never user text); ties in insertion order.
      const { rows } = await pool.query<ThreadRow>(
        `SELECT ${COLUMNS} FROM deployment.threads WHERE ${where.sql}
         ORDER BY ${column} ${direction}, seq ${direction}`,
        where.params,
      );
      return rows.map(toRecord);
    },
    async touch(threadId) {
      await pool.query('UPDATE deployment.threads SET updated_at = $1 WHERE thread_id = $2', [
        new Date().toISOString(),
        threadId,
      ]);
    },
    async patchMetadata(threadId, metadata, seen) {
      if (seen) {
        // One statement when the metadata is still what the caller read (compared as JSON
        // values); otherwise the locked read-merge-write below.
        const { rows } = await pool.query<ThreadRow>(
          `UPDATE deployment.threads SET updated_at = $1, metadata = $2
           WHERE thread_id = $3 AND metadata::jsonb = $4::jsonb RETURNING ${COLUMNS}`,
          [
            new Date().toISOString(),
            JSON.stringify({ ...seen.metadata, ...metadata }),
            threadId,
            JSON.stringify(seen.metadata),
          ],
        );
        if (rows[0]) return toRecord(rows[0]);
      }
      // Row-locked read-merge-write: concurrent patches add up, keys keep their order.
      return inTransaction(pool, async (client) => {
        const current = await client.query<ThreadRow>(
          `SELECT ${COLUMNS} FROM deployment.threads WHERE thread_id = $1 FOR UPDATE`,
          [threadId],
        );
        if (!current.rows[0]) return undefined;
        const merged = { ...current.rows[0].metadata, ...metadata };
        const { rows } = await client.query<ThreadRow>(
          `UPDATE deployment.threads SET updated_at = $1, metadata = $2
           WHERE thread_id = $3 RETURNING ${COLUMNS}`,
          [new Date().toISOString(), JSON.stringify(merged), threadId],
        );
        return rows[0] && toRecord(rows[0]);
      });
    },
    async delete(threadId) {
      const { rowCount } = await pool.query('DELETE FROM deployment.threads WHERE thread_id = $1', [
        threadId,
      ]);
      return (rowCount ?? 0) > 0;
    },
    copy: (source) =>
      inTransaction(pool, async (client) => {
        const threadId = randomUUID();
        const copied = await insert(client, { ...source.metadata, thread_id: threadId }, threadId);
        for (const [table, columns] of COPIED_CHECKPOINT_TABLES) {
          await client.query(
            `INSERT INTO deployment.${table} (thread_id, ${columns})
             SELECT $1, ${columns} FROM deployment.${table} WHERE thread_id = $2`,
            [threadId, source.thread_id],
          );
        }
        return copied as ThreadRecord;
      }),
    async count() {
      const { rows } = await pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM deployment.threads',
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}

/** The official Postgres checkpointer's tables and their columns besides `thread_id`. */
const COPIED_CHECKPOINT_TABLES = [
  ['checkpoints', 'checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata'],
  ['checkpoint_blobs', 'checkpoint_ns, channel, version, type, blob'],
  ['checkpoint_writes', 'checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob'],
] as const;
