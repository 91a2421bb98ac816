/**
 * Runtime checks of a server's answer without zod, for the responses the usage tab's first
 * screen reads: zod's core (~20 KB on the wire even through `zod/mini`) would otherwise be a
 * tenth of the tab's first load. Each guard mirrors one zod schema of the contracts and is kept
 * equal to it by `response-guards.test.ts` (same types, same verdicts on the same inputs, same
 * output). Everything else (requests, the server, screens loaded on demand) parses with zod.
 */

/** Where in the answer a value sits: keys and array indexes from the root. */
export type WirePath = readonly (string | number)[];

/** Returns the value as the contract types it (unknown keys dropped), or throws WireFormatError. */
export type Guard<T> = (value: unknown, path?: WirePath) => T;

declare const OPTIONAL: unique symbol;
/** A guard whose key an object may leave out (zod's `optional`/`nullish`): a type-level mark. */
export type OptionalGuard<T> = Guard<T | undefined> & { readonly [OPTIONAL]: true };

export type GuardOutput<G> = G extends Guard<infer T> ? T : never;

type Shape = Record<string, Guard<unknown>>;
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends OptionalGuard<unknown> ? K : never;
}[keyof S];
type Flatten<T> = { [K in keyof T]: T[K] } & {};
/** An object's type as `z.infer` gives it: optional keys where the guard allows them absent. */
export type ObjectOutput<S extends Shape> = Flatten<
  { [K in Exclude<keyof S, OptionalKeys<S>>]: GuardOutput<S[K]> } & {
    [K in OptionalKeys<S>]?: GuardOutput<S[K]>;
  }
>;

/** The answer does not have the shape the API promises: says where, what and what came. */
export class WireFormatError extends Error {
  override name = 'WireFormatError';

  constructor(
    readonly path: WirePath,
    readonly expected: string,
    received: unknown,
  ) {
    super(
      `The server's answer does not match the API at ${pathText(path)}: expected ${expected}, ` +
        `got ${describeValue(received)}.`,
    );
  }
}

function pathText(path: WirePath): string {
  if (path.length === 0) return 'its root';
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`,
    )
    .join('');
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

function fail(path: WirePath, expected: string, value: unknown): never {
  throw new WireFormatError(path, expected, value);
}

/** A string; `min`/`max` bound its length in UTF-16 code units, as zod's `minLength` does. */
export function string(bounds: { min?: number; max?: number } = {}): Guard<string> {
  const { min = 0, max = Infinity } = bounds;
  const expected =
    min > 0 || max < Infinity ? `a string of ${min} to ${max} characters` : 'a string';
  return (value, path = []) =>
    typeof value === 'string' && value.length >= min && value.length <= max
      ? value
      : fail(path, expected, value);
}

/** A string matching `pattern` (an ISO date-time, a UUID), named for the error message. */
export function matching(pattern: RegExp, expected: string): Guard<string> {
  return (value, path = []) =>
    typeof value === 'string' && pattern.test(value) ? value : fail(path, expected, value);
}

export const boolean: Guard<boolean> = (value, path = []) =>
  typeof value === 'boolean' ? value : fail(path, 'true or false', value);

/** A finite number within the bounds (inclusive). */
export function number(bounds: { min?: number; max?: number } = {}): Guard<number> {
  const { min = -Infinity, max = Infinity } = bounds;
  return (value, path = []) =>
    typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
      ? value
      : fail(path, rangeText('a number', min, max), value);
}

/** A safe integer (zod's `z.int()`) within the bounds (inclusive). */
export function int(bounds: { min?: number; max?: number } = {}): Guard<number> {
  const { min = -Infinity, max = Infinity } = bounds;
  return (value, path = []) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
      ? value
      : fail(path, rangeText('an integer', min, max), value);
}

function rangeText(what: string, min: number, max: number): string {
  if (min === 0 && max === Infinity) return `a non-negative ${what.replace(/^an? /, '')}`;
  if (min === -Infinity && max === Infinity) return what;
  return `${what} from ${min} to ${max}`;
}

/** One of the listed strings (zod's `z.enum`). */
export function oneOf<const V extends string>(values: readonly V[]): Guard<V> {
  const allowed: readonly string[] = values;
  const expected = `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`;
  return (value, path = []) =>
    typeof value === 'string' && allowed.includes(value)
      ? (value as V)
      : fail(path, expected, value);
}

export function nullable<T>(guard: Guard<T>): Guard<T | null> {
  return (value, path = []) => (value === null ? null : guard(value, path));
}

/** Absent, undefined or null (zod's `z.nullish`). */
export function nullish<T>(guard: Guard<T>): OptionalGuard<T | null> {
  const check: Guard<T | null | undefined> = (value, path = []) =>
    value === null || value === undefined ? value : guard(value, path);
  // The mark is type-level only: `object` reads the key as optional.
  return check as OptionalGuard<T | null>;
}

/** `fallback` when the key is absent or undefined (zod's `z._default`). */
export function withDefault<T>(guard: Guard<T>, fallback: T): Guard<T> {
  return (value, path = []) => (value === undefined ? fallback : guard(value, path));
}

/** A list whose every item passes `item`. */
export function array<T>(item: Guard<T>): Guard<T[]> {
  return (value, path = []) => {
    if (!Array.isArray(value)) return fail(path, 'a list', value);
    return value.map((entry: unknown, index) => item(entry, [...path, index]));
  };
}

/** An object with the shape's keys, each checked; other keys are dropped (zod's default). */
export function object<S extends Shape>(shape: S): Guard<ObjectOutput<S>> {
  const entries = Object.entries(shape);
  return (value, path = []) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return fail(path, 'an object', value);
    }
    const input = value as Record<string, unknown>;
    const output: Record<string, unknown> = {};
    for (const [key, guard] of entries) {
      const checked = guard(input[key], [...path, key]);
      // An absent optional key stays absent, as zod leaves it.
      if (checked !== undefined || key in input) output[key] = checked;
    }
    return output as ObjectOutput<S>;
  };
}
