import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MetadataFilter, matchesFilters } from './metadata-filter';
import { metadataFilterSql as postgresSql } from './postgres/metadata-filter-sql';
import { metadataFilterSql as sqliteSql } from './sqlite/metadata-filter-sql';

const TEST_DATABASE_URI = process.env.TEST_DATABASE_URI || undefined;

/** Metadata of the records filtered, by name. */
const RECORDS: Record<string, Record<string, unknown>> = {
  alice: { owner: 'alice', tags: ['a', 'b'], team: 'red' },
  bob: { owner: 'bob', tags: ['b'], team: 'blue' },
  numeric: { owner: 5, tags: 'a' },
  quoted: { owner: "o'brien", 'dotted.key': 'x' },
  none: {},
};

/** Filters whose SQL must select exactly what the one-record check accepts. */
const FILTERS: [string, MetadataFilter][] = [
  ['equal string', { owner: 'alice' }],
  ['a quote in the value', { owner: "o'brien" }],
  ['a number is not its string', { owner: '5' }],
  ['$eq', { owner: { $eq: 'bob' } }],
  ['$contains one', { tags: { $contains: 'b' } }],
  ['$contains all', { tags: { $contains: ['a', 'b'] } }],
  ['$contains on a string', { tags: { $contains: 'a' } }],
  ['$or', { $or: [{ owner: 'bob' }, { team: 'red' }] }],
  ['$and', { $and: [{ owner: 'alice' }, { team: 'blue' }] }],
  ['nested', { team: 'red', $or: [{ owner: 'alice' }, { owner: 'bob' }] }],
  ['a key with a dot', { 'dotted.key': 'x' }],
  ['empty', {}],
];

const expected = (filter: MetadataFilter) =>
  Object.keys(RECORDS)
    .filter((name) => matchesFilters(RECORDS[name] ?? {}, filter))
    .sort();

describe('SQLite metadata filters select what the one-record check accepts', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE records (name TEXT, metadata TEXT)');
  const insert = db.prepare('INSERT INTO records VALUES (?, ?)');
  for (const [name, metadata] of Object.entries(RECORDS)) {
    insert.run(name, JSON.stringify(metadata));
  }

  it.each(FILTERS)('%s', (_name, filter) => {
    const { sql, params } = sqliteSql(filter);
    const rows = db
      .prepare<unknown[], { name: string }>(`SELECT name FROM records WHERE ${sql} ORDER BY name`)
      .all(...params);
    expect(rows.map((row) => row.name)).toEqual(expected(filter));
  });
});

describe.skipIf(!TEST_DATABASE_URI)(
  'Postgres metadata filters select what the one-record check accepts (skipped: TEST_DATABASE_URI unset)',
  () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URI });
    beforeAll(async () => {
      await client.connect();
      await client.query('CREATE TEMP TABLE records (name text, metadata json)');
      for (const [name, metadata] of Object.entries(RECORDS)) {
        await client.query('INSERT INTO records VALUES ($1, $2)', [name, JSON.stringify(metadata)]);
      }
    });
    afterAll(() => client.end());

    it.each(FILTERS)('%s', async (_name, filter) => {
      // Numbered after one parameter of the query's own, as the cron store numbers them.
      const { sql, params } = postgresSql(filter, 2);
      const { rows } = await client.query<{ name: string }>(
        `SELECT name FROM records WHERE name <> $1 AND ${sql} ORDER BY name`,
        ['-', ...params],
      );
      expect(rows.map((row) => row.name)).toEqual(expected(filter));
    });
  },
);
