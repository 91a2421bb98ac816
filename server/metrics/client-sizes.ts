import type pg from 'pg';

/**
 * A database client's connections and queue at one moment: `total` connections (open sockets),
 * `idle` ones, and `waiting`: requests or commands queued for a connection (a pool's waiters, a
 * Redis client's unsent commands, a single writer's queued batches).
 */
export interface ClientSize {
  total: number;
  idle: number;
  waiting: number;
}

/** Each database client of a service by name (`usage_postgres`, `redis`, ...). */
export type ClientSizes = () => Record<string, ClientSize>;

export const poolSize = (pool: pg.Pool): ClientSize => ({
  total: pool.totalCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
});

/** An HTTP agent's sockets, and the requests waiting for one (the ClickHouse reads). */
export function agentSize(agent: {
  sockets: NodeJS.ReadOnlyDict<unknown[]>;
  freeSockets: NodeJS.ReadOnlyDict<unknown[]>;
  requests: NodeJS.ReadOnlyDict<unknown[]>;
}): ClientSize {
  const count = (dict: NodeJS.ReadOnlyDict<unknown[]>) =>
    Object.values(dict).reduce((sum, list) => sum + (list?.length ?? 0), 0);
  const idle = count(agent.freeSockets);
  return { total: count(agent.sockets) + idle, idle, waiting: count(agent.requests) };
}
