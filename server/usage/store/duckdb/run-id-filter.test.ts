import { randomUUID } from 'node:crypto';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { loadRunIdFilter, RunIdFilter, selectUnbilled } from './run-id-filter';

describe('RunIdFilter', () => {
  it('keeps every fingerprint it was given through its growth, (0, 0) included', () => {
    const filter = new RunIdFilter();
    const added: [number, number][] = [[0, 0]];
    for (let i = 1; i < 300_000; i += 1) added.push([(i * 2_654_435_761) >>> 0, i]);
    for (const [high, low] of added) filter.add(high, low);
    filter.add(0, 0);
    expect(filter.size).toBe(added.length);
    expect(added.every(([high, low]) => filter.has(high, low))).toBe(true);
    expect(filter.has(1, 0)).toBe(false);
    expect(filter.has(7, 300_001)).toBe(false);
  });
});

describe('selectUnbilled', () => {
  it('returns the ids not stored yet, and remembers new ones only when told', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run('CREATE TABLE traces (run_id UUID NOT NULL)');
    const stored = [randomUUID(), randomUUID()];
    await connection.run(`INSERT INTO traces VALUES ('${stored[0]}'), ('${stored[1]}')`);
    const filter = await loadRunIdFilter(connection);
    expect(filter.size).toBe(2);

    const fresh = randomUUID();
    const first = await selectUnbilled(connection, filter, [...stored, fresh]);
    expect([...first.unbilled]).toEqual([fresh]);
    // Not committed: the id is still new to the next write.
    const again = await selectUnbilled(connection, filter, [fresh]);
    expect([...again.unbilled]).toEqual([fresh]);
    again.remember();
    expect(filter.size).toBe(3);
    // Remembered but not in the table (a collision, as far as the filter knows): checked exactly.
    expect([...(await selectUnbilled(connection, filter, [fresh])).unbilled]).toEqual([fresh]);
    connection.closeSync();
    instance.closeSync();
  });
});
