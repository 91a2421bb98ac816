/**
 * How deep a request body's JSON may nest. Real bodies (messages, state, metadata) stay within a
 * dozen levels; the recursive walks over stored JSON (metadata filters, `jsonb @>`) would exhaust
 * the stack on thousands, so a deeper body is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 256;

const OPENERS = new Set(['[', '{']);
const CLOSERS = new Set([']', '}']);

/**
 * Whether `text` nests deeper than `limit`, read without parsing it: brackets inside strings are
 * skipped, so the scan is one linear pass whatever the text holds.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] ?? '';
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (OPENERS.has(char)) {
      if (++depth > limit) return true;
    } else if (CLOSERS.has(char)) {
      depth--;
    }
  }
  return false;
}

/** A UTF-16 surrogate without its other half: no UTF-8 form, so Postgres refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why Postgres cannot store `text` (in `text` or `jsonb`), or null when it can. */
export function unstorableReason(text: string): string | null {
  if (text.includes('\u0000')) return 'holds a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'holds a lone UTF-16 surrogate';
  return null;
}

/**
 * The first string of `value` (a key or a value) that Postgres cannot store, as
 * `path: reason`, or null. Both backends refuse the same bodies, so SQLite does this check too.
 */
export function findUnstorableString(value: unknown): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: 'body' }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    if (typeof item.value === 'string') {
      const reason = unstorableReason(item.value);
      if (reason) return `${item.path}: ${reason}`;
    } else if (Array.isArray(item.value)) {
      const { path } = item;
      item.value.forEach((child, index) =>
        pending.push({ value: child, path: `${path}.${index}` }),
      );
    } else if (typeof item.value === 'object' && item.value !== null) {
      for (const [key, child] of Object.entries(item.value)) {
        const path = `${item.path}.${key}`;
        const reason = unstorableReason(key);
        if (reason) return `${path} (key): ${reason}`;
        pending.push({ value: child, path });
      }
    }
  }
  return null;
}

export type JsonRead = { ok: true; value: unknown } | { ok: false; detail: string };

/**
 * A request body's JSON, refused (for a 422) when it nests deeper than MAX_JSON_DEPTH, is not
 * JSON, or holds a string the stores cannot keep.
 */
export function readJsonText(text: string): JsonRead {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return { ok: false, detail: `body: nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, detail: 'body: not valid JSON' };
  }
  const unstorable = findUnstorableString(value);
  return unstorable ? { ok: false, detail: unstorable } : { ok: true, value };
}
