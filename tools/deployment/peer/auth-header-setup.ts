/**
 * With `PEER_AUTH_TOKEN` set (`npm run test:peer -- --auth`), every request the suite sends to
 * `PEER_API_URL` (its SDK client and its own `fetch` calls, truncate included) carries the token
 * as `Authorization: Bearer …`, as the suite's `graphs/auth.mts` expects: the suite itself sends
 * no credentials.
 */
const token = process.env.PEER_AUTH_TOKEN;
const apiUrl = process.env.PEER_API_URL;

if (token && apiUrl) {
  const origin = new URL(apiUrl).origin;
  const plainFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).origin !== origin || request.headers.has('authorization')) {
      return plainFetch(request);
    }
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${token}`);
    return plainFetch(new Request(request, { headers }));
  };
}
