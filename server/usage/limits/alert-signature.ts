import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header carrying an alert's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'x-usage-signature';

/**
 * Signs an alert body: HMAC-SHA256 with the shared secret over `<t>.<body>` (the timestamp
 * bound in, so an old delivery cannot be replayed as new), hex-encoded.
 */
export function signAlert(secret: string, body: string, timestampSec: number): string {
  const digest = createHmac('sha256', secret).update(`${timestampSec}.${body}`).digest('hex');
  return `t=${timestampSec},v1=${digest}`;
}

/**
 * What a receiver does: recompute the HMAC over the raw body with the header's timestamp,
 * compare in constant time, and refuse timestamps more than `toleranceSec` from now.
 */
export function verifyAlertSignature(
  secret: string,
  header: string | null | undefined,
  body: string,
  nowSec: number,
  toleranceSec = 300,
): boolean {
  const fields = new Map(
    (header ?? '').split(',').map((part) => {
      const [key = '', value = ''] = part.trim().split('=', 2);
      return [key, value] as const;
    }),
  );
  const timestamp = Number(fields.get('t'));
  const given = fields.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || Math.abs(nowSec - timestamp) > toleranceSec) return false;
  const expected = signAlert(secret, body, timestamp).split('v1=')[1] ?? '';
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
