/** One field of a recorded state as it changed: its text before and after (null: absent). */
export interface FieldChange {
  field: string;
  before: string | null;
  after: string | null;
}

/** Longest value shown in full; a longer one is cut, with the whole text kept for a tooltip. */
export const SHOWN_VALUE_CHARS = 60;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

/**
 * A state as `field -> text`: nested objects flattened with dots (`alerts.email`), arrays and
 * scalars as their JSON (a string as itself). A state that is not an object is one field,
 * `value`; null or undefined is no field at all.
 */
export function flattenState(state: unknown, prefix = ''): Map<string, string> {
  const fields = new Map<string, string>();
  if (state === null || state === undefined) return fields;
  if (!isRecord(state)) {
    fields.set(prefix || 'value', text(state));
    return fields;
  }
  for (const [key, value] of Object.entries(state)) {
    const field = prefix ? `${prefix}.${key}` : key;
    if (isRecord(value) && Object.keys(value).length > 0) {
      for (const [inner, innerText] of flattenState(value, field)) fields.set(inner, innerText);
    } else {
      fields.set(field, value === null ? 'null' : text(value));
    }
  }
  return fields;
}

/**
 * The fields an audit entry changed, in the order the new state lists them, then the ones only
 * the old state had: a field whose text is the same before and after is left out.
 */
export function auditChanges(before: unknown, after: unknown): FieldChange[] {
  const old = flattenState(before);
  const now = flattenState(after);
  const fields = [...now.keys(), ...[...old.keys()].filter((field) => !now.has(field))];
  return fields
    .map((field) => ({ field, before: old.get(field) ?? null, after: now.get(field) ?? null }))
    .filter((change) => change.before !== change.after);
}

/** A value as shown in a cell: whole up to `SHOWN_VALUE_CHARS`, else cut with an ellipsis. */
export function shownValue(value: string): string {
  return value.length <= SHOWN_VALUE_CHARS ? value : `${value.slice(0, SHOWN_VALUE_CHARS - 1)}…`;
}
