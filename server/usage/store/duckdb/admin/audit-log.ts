import { randomUUID } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { AuditChange, AuditEntry } from '@server/usage/store/usage-store';

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
const parse = (text: unknown): unknown => (text === null ? null : JSON.parse(String(text)));

/** Appends one entry (the caller is the one writer: `seq` cannot race). */
export async function recordChange(
  connection: DuckDBConnection,
  change: AuditChange,
): Promise<AuditEntry> {
  const entry: AuditEntry = {
    ...change,
    id: randomUUID(),
    at: new Date().toISOString(),
  };
  await connection.run(
    `INSERT INTO audit_log
     SELECT coalesce(max(seq), 0) + 1, $1::UUID, $2::TIMESTAMP, $3, $4, $5, $6, $7 FROM audit_log`,
    [
      entry.id,
      entry.at.replace('Z', ''),
      entry.actor,
      entry.action,
      entry.target,
      json(entry.before),
      json(entry.after),
    ],
  );
  return { ...entry, before: change.before ?? null, after: change.after ?? null };
}

/** A page of the log, newest first. */
export async function readAuditPage(
  connection: DuckDBConnection,
  offset: number,
  limit: number,
): Promise<{ entries: AuditEntry[]; total: number }> {
  const reader = await connection.runAndReadAll(
    `SELECT id::VARCHAR, strftime(changed_at, '%Y-%m-%dT%H:%M:%S.%g') || 'Z', actor, action, target,
       before_json, after_json
     FROM audit_log ORDER BY seq DESC LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const count = await connection.runAndReadAll('SELECT count(*)::DOUBLE FROM audit_log');
  const entries = reader
    .getRowsJS()
    .map(([id, at, actor, action, target, before, after]): AuditEntry => ({
      id: String(id),
      at: String(at),
      actor: String(actor),
      action: String(action),
      target: String(target),
      before: parse(before),
      after: parse(after),
    }));
  return { entries, total: Number(count.getRowsJS()[0]?.[0] ?? 0) };
}
