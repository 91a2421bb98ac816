import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface LocalIdentityProvider {
  issuer: string;
  /** Signs `email` in at the provider, from the console's login redirect to its callback URL. */
  signIn(authorizationUrl: string, email: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * An OpenID provider (`oidc-provider`) on a free loopback port, with one confidential client
 * and every account's e-mail verified: the account id is the e-mail typed at its login form.
 */
export async function startLocalIdentityProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<LocalIdentityProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: true }),
    }),
    cookies: { keys: ['local-identity-provider-test-key'] },
  });
  server.on('request', provider.callback());

  /** The provider's cookies, as a browser keeps them across its redirects. */
  const jar = new Map<string, string>();
  const visit = async (url: string, body?: URLSearchParams) => {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (!location) throw new Error(`${url} answered ${response.status} without a redirect`);
    return new URL(location, url);
  };

  return {
    issuer,
    async signIn(authorizationUrl, email) {
      jar.clear();
      let next = await visit(authorizationUrl);
      // Login, then consent, each at its interaction page; then back to the client.
      for (const prompt of ['login', 'consent']) {
        if (!next.pathname.startsWith('/interaction/')) break;
        const answer = new URLSearchParams({ prompt, login: email });
        next = await visit(await visit(next.href, answer).then((url) => url.href));
      }
      return next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
