/** When an item put or read now with a time to live of `ttlMinutes` expires (ISO); null: never. */
export function expiryOf(ttlMinutes: number | null | undefined, now = Date.now()): string | null {
  return ttlMinutes ? new Date(now + ttlMinutes * 60_000).toISOString() : null;
}
