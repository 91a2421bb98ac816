import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from '@langchain/langgraph-sdk';
import { Client as Client115 } from '@langchain/langgraph-sdk-115';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Part } from './stream-parts';
import { SF, SF_RUN, conversation, userInput } from './test-deployment';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

/**
 * A TCP load balancer in front of replicas that can go silent the way a dropped route does: its
 * open connections stop carrying bytes but are never closed (no FIN, no RST), and new
 * connections go to another replica.
 */
async function startBalancer(targets: string[]) {
  let target = 0;
  const connectionsTo = targets.map(() => 0);
  const open = new Set<{ client: Socket; upstream: Socket }>();
  const server: Server = createServer((client) => {
    const { hostname, port } = new URL(targets[target] ?? '');
    connectionsTo[target] = (connectionsTo[target] ?? 0) + 1;
    const upstream = connect(Number(port), hostname);
    const pair = { client, upstream };
    open.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', drop);
      socket.on('close', drop);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/deployment`,
    connectionsTo,
    /** Open connections go silent (still open); new ones reach replica `to`. */
    blackHoleAndSwitch(to: number) {
      for (const { client, upstream } of open) {
        upstream.unpipe(client);
        client.unpipe(upstream);
        upstream.pause();
      }
      target = to;
    },
    close: () => {
      for (const { client, upstream } of open) {
        client.destroy();
        upstream.destroy();
      }
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(replicaServicesMissing)(
  'streamIdleReconnect "auto" across replicas (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    // Each model step outlasts the SDK's idle window (at least 6 s), so the run is still going
    // when the client notices the silence.
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: 2_500 });
    let balancer: Awaited<ReturnType<typeof startBalancer>>;

    beforeAll(async () => {
      await cluster.createDatabase();
      const env = { SSE_HEARTBEAT_INTERVAL_MS: '200' };
      await Promise.all([cluster.start(env), cluster.start(env)]);
      balancer = await startBalancer(cluster.urls.map((url) => url.replace(/deployment$/, '')));
    });
    afterAll(async () => {
      await balancer.close();
      await cluster.stop();
    });

    it('a stream gone silent resumes on the other replica and sees every event once', async () => {
      // Only the stream goes through the balancer: no idle pooled connection there goes silent too.
      const replica0 = new Client({ apiUrl: cluster.urls[0] ?? '' });
      const { thread_id } = await replica0.threads.create();
      const client = new Client115({ apiUrl: balancer.url, callerOptions: { maxRetries: 0 } });
      const stream = client.runs.stream(thread_id, 'agent', {
        input: userInput(SF),
        streamResumable: true,
        streamIdleReconnect: 'auto',
      });
      const parts: Part[] = [];
      for await (const part of stream) {
        parts.push(part as Part);
        // The run has started on replica 0. Once the client has seen a few heartbeats (the SDK
        // arms its watchdog after two), the route drops without a word.
        if (parts.length === 2) setTimeout(() => balancer.blackHoleAndSwitch(1), 1_000);
      }
      expect(parts.map((part) => part.id)).toEqual(['0', '1', '2', '3', '4']);
      expect(parts.map((part) => part.event)).toEqual([
        'metadata',
        'values',
        'values',
        'values',
        'values',
      ]);
      expect(balancer.connectionsTo[1]).toBeGreaterThan(0);
      const replica1 = new Client({ apiUrl: cluster.urls[1] ?? '' });
      expect(await conversation(replica1, thread_id)).toEqual(SF_RUN);
    }, 60_000);
  },
);
