import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareStatements } from './prepared-statements';

const TEST_DATABASE_URI = process.env.TEST_DATABASE_URI || undefined;

describe.skipIf(!TEST_DATABASE_URI)(
  'prepared statements (skipped: TEST_DATABASE_URI unset)',
  () => {
    let pool: pg.Pool | undefined;
    /** One connection, so every statement below runs in the session whose statements we list. */
    const open = (maxNames?: number) => {
      pool = new pg.Pool({ connectionString: TEST_DATABASE_URI, max: 1 });
      prepareStatements(pool, maxNames);
      return pool;
    };
    const prepared = async (db: pg.Pool) =>
      (
        await db.query<{ name: string; statement: string }>(
          'SELECT name, statement FROM pg_prepared_statements ORDER BY prepare_time',
        )
      ).rows;

    afterEach(async () => {
      await pool?.end();
      pool = undefined;
    });

    it('prepares a parameterized statement once per connection and reuses it', async () => {
      const db = open();
      const sum = (n: number) => db.query<{ n: number }>('SELECT $1::int + 1 AS n', [n]);
      expect((await sum(1)).rows[0]?.n).toBe(2);
      expect((await sum(41)).rows[0]?.n).toBe(42);
      const client = await db.connect();
      try {
        expect((await client.query('SELECT $1::int + 1 AS n', [9])).rows[0]?.n).toBe(10);
      } finally {
        client.release();
      }
      expect(await prepared(db)).toEqual([{ name: 's0', statement: 'SELECT $1::int + 1 AS n' }]);
    });

    it('sends texts past the cap unnamed, and statements without parameters as they are', async () => {
      const db = open(2);
      for (const text of ['SELECT $1::int AS a', 'SELECT $1::int AS b', 'SELECT $1::int AS c']) {
        expect((await db.query(text, [7])).rows[0]).toEqual({ [text.slice(-1)]: 7 });
      }
      await db.query('SELECT 1');
      expect((await prepared(db)).map((row) => row.name)).toEqual(['s0', 's1']);
    });

    it('keeps a statement that failed to parse out, and the connection usable', async () => {
      const db = open();
      await expect(db.query('SELEC $1::int', [1])).rejects.toThrow(/syntax error/);
      await expect(db.query('SELEC $1::int', [1])).rejects.toThrow(/syntax error/);
      expect((await db.query('SELECT $1::int AS ok', [1])).rows[0]).toEqual({ ok: 1 });
      expect((await prepared(db)).map((row) => row.statement)).toEqual(['SELECT $1::int AS ok']);
    });
  },
);
