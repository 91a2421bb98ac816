import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { AuditChange, AuditEntry } from '@server/usage/store/usage-store';

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** Appends one entry; `seq` orders it among entries of every replica. */
export async function recordChange(pool: Pool, change: AuditChange): Promise<AuditEntry> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await pool.query(
    `INSERT INTO usage.audit_log (id, changed_at, actor, action, target, before_json, after_json)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      id,
      at.replace('Z', ''),
      change.actor,
      change.action,
      change.target,
      json(change.before),
      json(change.after),
    ],
  );
  return { ...change, before: change.before ?? null, after: change.after ?? null, id, at };
}

interface AuditRow {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  before: string | null;
  after: string | null;
}

/** A page of the log, newest first. */
export async function readAuditPage(
  pool: Pool,
  offset: number,
  limit: number,
): Promise<{ entries: AuditEntry[]; total: number }> {
  const page = await pool.query<AuditRow>(
    `SELECT id::text, to_char(changed_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS') || 'Z' AS at, actor, action,
       target, before_json AS before, after_json AS after
     FROM usage.audit_log ORDER BY seq DESC LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await pool.query<{ total: string }>(
    'SELECT count(*)::text AS total FROM usage.audit_log',
  );
  const entries = page.rows.map((row) => ({
    ...row,
    before: parse(row.before),
    after: parse(row.after),
  }));
  return { entries, total: Number(count.rows[0]?.total ?? 0) };
}
