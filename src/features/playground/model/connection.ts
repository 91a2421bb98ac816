/**
 * Where the playground sends its SDK calls: the console server's proxy (which reaches the embedded
 * deployment or the one configured on the server, key included), or a URL typed by the user and
 * called straight from the browser.
 */
export type Connection = { kind: 'embedded' } | { kind: 'url'; url: string; apiKey: string };

/** The proxy path on the console server; `/_console/config` says what it reaches. */
export const EMBEDDED_DEPLOYMENT_PATH = '/_console/deployment';
