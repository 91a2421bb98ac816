/** Query parameters that carry a secret in a connection string (libpq's `?password=`, …). */
const SECRET_PARAMS = /^(password|pass|pwd|secret|token|sslpassword)$/i;

/**
 * A connection string as it may be printed: its password (in userinfo or a query parameter)
 * replaced by `***`. Something that does not parse as a URL is printed as nothing more than its
 * scheme, since it could be anything.
 */
export function redactedAddress(uri: string): string {
  const url = URL.parse(uri);
  if (url === null) return `${uri.split(':')[0] ?? ''}:…`;
  if (url.password !== '') url.password = '***';
  for (const key of [...url.searchParams.keys()]) {
    if (SECRET_PARAMS.test(key)) url.searchParams.set(key, '***');
  }
  // `URL` escapes the stars in a search parameter; keep them readable.
  return url.toString().replace(/%2A%2A%2A/g, '***');
}
