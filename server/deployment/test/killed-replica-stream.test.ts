import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Client } from '@langchain/langgraph-sdk';
import { Client as Client115 } from '@langchain/langgraph-sdk-115';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyUrl, type ServerProcess } from '@server/test/server-process';
import { collect, messageCount, type Part } from './stream-parts';
import { SF, SF_RUN, conversation, userInput, waitForMessages } from './test-deployment';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

/**
 * A TCP load balancer with passive health checks: each new connection goes to the first replica
 * that accepts it, in order, so once a replica's process is gone its clients land on the next.
 */
async function startFailoverBalancer(targets: string[]) {
  const open = new Set<Socket>();
  const connectionsTo = targets.map(() => 0);
  const reach = (index: number, client: Socket) => {
    const { hostname, port } = new URL(targets[index] ?? '');
    const upstream = connect(Number(port), hostname);
    let connected = false;
    upstream.once('error', () => {
      if (connected) return;
      if (index + 1 < targets.length) reach(index + 1, client);
      else client.destroy();
    });
    upstream.once('connect', () => {
      connected = true;
      connectionsTo[index] = (connectionsTo[index] ?? 0) + 1;
      open.add(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      const drop = () => {
        open.delete(upstream);
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) socket.on('close', drop).on('error', drop);
    });
  };
  const server: Server = createServer((client) => {
    client.pause();
    open.add(client);
    client.on('close', () => open.delete(client));
    reach(0, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/deployment`,
    connectionsTo,
    close: () => {
      open.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const attemptOf = (part: Part) => (part.data as { attempt?: number }).attempt;

describe.skipIf(replicaServicesMissing)(
  'a replica SIGKILLed mid-stream (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    // The default lease: the survivor notices the dead replica without waiting the lease out.
    const cluster = createTestReplicas({ leaseMs: 30_000, stepMs: 1_500 });
    let balancer: Awaited<ReturnType<typeof startFailoverBalancer>>;
    /** The replica process serving `apiUrl` (replicas started together are ready in any order). */
    const replicaAt = async (apiUrl: string) => {
      const ready = await Promise.all(cluster.replicas.map((replica) => readyUrl(replica)));
      return cluster.replicas[ready.findIndex((url) => apiUrl.startsWith(url))] as ServerProcess;
    };

    beforeAll(async () => {
      await cluster.createDatabase();
      const env = { SSE_HEARTBEAT_INTERVAL_MS: '1000' };
      await Promise.all([cluster.start(env), cluster.start(env)]);
      balancer = await startFailoverBalancer(
        cluster.urls.map((url) => url.replace(/deployment$/, '')),
      );
    });
    afterAll(async () => {
      await balancer.close();
      await cluster.stop();
    });

    it('the survivor takes the run over; the client resumes and sees every event once', async () => {
      const victim = await replicaAt(cluster.urls[0] ?? '');
      const client = new Client115({ apiUrl: balancer.url, callerOptions: { maxRetries: 0 } });
      const { thread_id } = await client.threads.create();
      const stream = client.runs.stream(thread_id, 'agent', {
        input: userInput(SF),
        streamResumable: true,
        streamIdleReconnect: 'auto',
      });
      const parts: Part[] = [];
      const seenAt: number[] = [];
      let killedAt: number | undefined;
      for await (const part of stream) {
        parts.push(part as Part);
        seenAt.push(Date.now());
        // The model's tool call is out, its answer a model step away: the replica dies mid-run.
        if (killedAt === undefined && messageCount(part as Part) === 2) {
          victim.child.kill('SIGKILL');
          killedAt = Date.now();
        }
      }
      expect(killedAt).toBeDefined();
      const afterKill = parts.findIndex((_, index) => (seenAt[index] ?? 0) > (killedAt ?? 0));
      const silentMs = (seenAt[afterKill] ?? Infinity) - (killedAt ?? 0);
      console.info(`killed-replica-stream: client silent ${silentMs} ms after the kill`);

      // Every event once: the ids run 0, 1, 2, ... without a gap or a repeat across the resume.
      expect(parts.map((part) => part.id)).toEqual(parts.map((_, index) => String(index)));
      // The first attempt's events, then the survivor's second attempt, whole.
      const restart = parts.findIndex((part, index) => index > 0 && part.event === 'metadata');
      expect(parts.filter((part) => part.event === 'metadata').map(attemptOf)).toEqual([1, 2]);
      expect(parts.slice(restart + 1).map((part) => part.event)).toEqual([
        'values',
        'values',
        'values',
        'values',
      ]);
      expect(messageCount(parts.at(-1) as Part)).toBe(SF_RUN.length);
      expect(balancer.connectionsTo[1]).toBeGreaterThan(0);
      const survivor = new Client({ apiUrl: cluster.urls[1] ?? '' });
      expect(await conversation(survivor, thread_id)).toEqual(SF_RUN);
      // The run was silent for the time it took to notice the death, not for a lease.
      expect(silentMs).toBeLessThan(10_000);
    }, 60_000);

    it('a replica whose liveness session drops but comes back keeps its run', async () => {
      const owner = new Client({ apiUrl: cluster.urls[1] ?? '' });
      const { thread_id } = await owner.threads.create();
      const run = await owner.runs.create(thread_id, 'agent', { input: userInput(SF) });
      await waitForMessages(owner, thread_id, 2);
      // As a Postgres restart or a dropped connection would: the session ends, the lock with it.
      const ended = await cluster.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
         WHERE application_name = 'deployment replica liveness' AND datname = current_database()`,
        [],
      );
      expect(ended.length).toBeGreaterThan(0);
      await owner.runs.join(thread_id, run.run_id);

      expect((await owner.runs.get(thread_id, run.run_id)).status).toBe('success');
      const parts = (await collect(owner.runs.joinStream(thread_id, run.run_id))).filter(
        (part) => part.event === 'metadata',
      );
      // One attempt: nobody took the run for lost.
      expect(parts.map(attemptOf)).toEqual([1]);
      expect(await conversation(owner, thread_id)).toEqual(SF_RUN);
    }, 60_000);

    it('a run lost on its last attempt: its open stream ends with an error, the run in error', async () => {
      const doomed = await cluster.start({ SSE_HEARTBEAT_INTERVAL_MS: '1000' });
      const victim = cluster.replicas.at(-1) as ServerProcess;
      const survivor = new Client({ apiUrl: cluster.urls[1] ?? '' });
      const { thread_id } = await doomed.threads.create();
      const run = await doomed.runs.create(thread_id, 'agent', { input: userInput(SF) });
      await waitForMessages(doomed, thread_id, 2);
      // As if two replicas had already died under it: this is its third and last attempt.
      await cluster.query('UPDATE deployment.runs SET attempt = 3 WHERE run_id = $1', [run.run_id]);
      const joined = survivor.runs.joinStream(thread_id, run.run_id)[Symbol.asyncIterator]();
      const parts = [(await joined.next()).value as Part];
      victim.child.kill('SIGKILL');
      const killedAt = Date.now();
      for (let next = await joined.next(); !next.done; next = await joined.next()) {
        // SDK 2 yields each heartbeat after an event as an empty part; 1.15 drops them.
        if ((next.value as Part).event !== '') parts.push(next.value as Part);
      }
      const endedMs = Date.now() - killedAt;
      console.info(`killed-replica-stream: lost run's stream ended ${endedMs} ms after the kill`);

      expect(parts.map((part) => part.event)).toEqual(['metadata', 'values', 'values', 'error']);
      expect(parts.at(-1)?.data).toEqual({
        error: 'RunLost',
        message: expect.stringContaining('was lost') as string,
      });
      const settled = await survivor.runs.get(thread_id, run.run_id);
      expect(settled.status).toBe('error');
      expect(endedMs).toBeLessThan(10_000);
    }, 60_000);
  },
);
