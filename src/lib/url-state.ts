import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

/**
 * Typed query-string state on the router's location, in the shape nuqs gave it (parsers, `withDefault`,
 * `useQueryStates`), in ~1 KB rather than nuqs' ~6 KB of the usage tab's 200 KB first load.
 * A value a parser cannot read is `null` (its default, when it has one); a default or `null`
 * leaves the key out of the URL.
 */
export interface QueryParser<T> {
  parse: (value: string) => T | null;
  serialize: (value: T) => string;
  eq: (a: T, b: T) => boolean;
  defaultValue?: T;
}

interface QueryParserBuilder<T> extends QueryParser<T> {
  withDefault: (defaultValue: T) => QueryParser<T> & { defaultValue: T };
}

/** Any parser, for constraints (its own value type is read back by `inferParserType`). */
interface SomeParser {
  parse: (value: string) => unknown;
  serialize: (value: never) => string;
  eq: (a: never, b: never) => boolean;
  defaultValue?: unknown;
}

type Parsers = Record<string, SomeParser>;

type ParsedValue<P> = P extends { parse: (value: string) => infer T | null } ? T : never;

/** The state a set of parsers reads: `T` with a default, `T | null` without. */
export type inferParserType<P> = {
  [K in keyof P]: P[K] extends { defaultValue: unknown }
    ? ParsedValue<P[K]>
    : ParsedValue<P[K]> | null;
};

function createParser<T>(parser: Omit<QueryParser<T>, 'eq'> & { eq?: QueryParser<T>['eq'] }) {
  const base: QueryParser<T> = { eq: (a, b) => a === b, ...parser };
  const builder: QueryParserBuilder<T> = {
    ...base,
    withDefault: (defaultValue) => ({ ...base, defaultValue }),
  };
  return builder;
}

export const parseAsString = createParser<string>({ parse: (value) => value, serialize: String });

export const parseAsFloat = createParser<number>({
  parse: (value) => {
    const number = parseFloat(value);
    return Number.isNaN(number) ? null : number;
  },
  serialize: String,
});

export function parseAsStringLiteral<const T extends string>(values: readonly T[]) {
  return createParser<T>({
    parse: (value) => (values.includes(value as T) ? (value as T) : null),
    serialize: String,
  });
}

/** Comma-separated items; a comma inside an item is written `%2C`. */
export function parseAsArrayOf<T>(item: QueryParser<T>) {
  return createParser<T[]>({
    parse: (value) =>
      value === ''
        ? []
        : value
            .split(',')
            .map((part) => item.parse(part.replaceAll('%2C', ',')))
            .filter((parsed): parsed is T => parsed !== null),
    serialize: (values) =>
      values.map((value) => item.serialize(value).replaceAll(',', '%2C')).join(','),
    eq: (a, b) => a.length === b.length && a.every((value, index) => item.eq(value, b[index] as T)),
  });
}

/** Characters that would break a query value, besides control characters and the space. */
const UNSAFE_IN_VALUE = new Set(['%', '+', '#', '&', '"', "'", '`', '<', '>']);

/** Like nuqs: only what would break the query string is escaped, so links stay readable. */
const escapeValue = (value: string) =>
  Array.from(value, (char) => {
    if (char === ' ') return '+';
    return UNSAFE_IN_VALUE.has(char) || char < ' ' ? encodeURIComponent(char) : char;
  }).join('');

function renderQueryString(search: URLSearchParams): string {
  const pairs = [...search].map(
    ([key, value]) => `${encodeURIComponent(key)}=${escapeValue(value)}`,
  );
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** The state from each parser's raw value (null when the key is absent), in `parsers`' order. */
function readState<P extends Parsers>(parsers: P, raw: readonly (string | null)[]) {
  const state: Record<string, unknown> = {};
  Object.entries(parsers).forEach(([key, parser], index) => {
    const value = raw[index] ?? null;
    state[key] = (value === null ? null : parser.parse(value)) ?? parser.defaultValue ?? null;
  });
  return state as inferParserType<P>;
}

export type QueryStatesUpdate<P> = Partial<{ [K in keyof P]: inferParserType<P>[K] | null }>;

/**
 * The parsers' keys as state, and a setter that writes a partial update to the URL (`null`
 * removes a key). `history: 'push'` makes each update a step Back undoes. `parsers` must be a
 * module constant.
 */
export function useQueryStates<P extends Parsers>(
  parsers: P,
  { history }: { history: 'push' | 'replace' },
) {
  const search = useSearch();
  const [, navigate] = useLocation();
  // A new object only when one of these keys changes, not for another hook's keys.
  const params = new URLSearchParams(search);
  const raw = JSON.stringify(Object.keys(parsers).map((key) => params.get(key)));
  const state = useMemo(
    () => readState(parsers, JSON.parse(raw) as (string | null)[]),
    [parsers, raw],
  );
  const setState = useCallback(
    (update: QueryStatesUpdate<P>) => {
      // The address bar, not this render's location: two updates in one event both land.
      const current = new URLSearchParams(window.location.search);
      for (const [key, value] of Object.entries(update)) {
        const parser = parsers[key] as QueryParser<unknown> | undefined;
        if (!parser || value === undefined) continue;
        const isDefault =
          parser.defaultValue !== undefined &&
          value !== null &&
          parser.eq(value, parser.defaultValue);
        if (value === null || isDefault) current.delete(key);
        else current.set(key, parser.serialize(value));
      }
      const next = renderQueryString(current);
      if (next === window.location.search) return;
      navigate(`${window.location.pathname}${next}${window.location.hash}`, {
        replace: history === 'replace',
      });
    },
    [parsers, history, navigate],
  );
  return [state, setState] as const;
}
