/**
 * Who a request the console forwards in-process comes from: bound in Hono's `c.env` by the
 * console proxy, which no client can set (unlike a header), so the embedded deployment keys its
 * per-client limits by the browser rather than counting every console user as one client.
 */
export interface ProxiedCaller {
  /** A stable name of the caller: the signed-in console user, else the browser's address. */
  client: string;
}

/** The `c.env` of a request the console proxy forwarded in-process. */
export interface ProxiedEnv {
  proxiedCaller?: ProxiedCaller;
}
