import { createHash } from 'node:crypto';

/** A UUID (version 4 layout) derived from `parts`: the same parts always give the same id. */
export function stableUuid(...parts: (string | number)[]): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex').slice(0, 32).split('');
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
