const hasToDict = (value: unknown): value is { toDict: () => { type: string; data: object } } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { toDict?: unknown }).toDict === 'function';

/**
 * A loaded graph's value as plain JSON the way the official JS server writes it: a LangChain
 * object (a message) as the `{...data, type}` of its `toDict()`, so fields it does not have
 * (a message's `name`) are left out rather than sent as `null`; an error as `{error, message}`.
 * The replacer reads `this[key]` because `toJSON` has already run on `value`.
 */
export function toForeignJson(value: unknown): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, replaced) {
    const raw = this[key];
    if (hasToDict(raw)) {
      const { type, data } = raw.toDict();
      return { ...data, type };
    }
    if (raw instanceof Error) return { error: raw.name, message: raw.message };
    return replaced as unknown;
  });
  return text === undefined ? null : (JSON.parse(text) as unknown);
}
