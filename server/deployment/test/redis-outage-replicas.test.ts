import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateService, type PrivateService } from '@server/test/private-service';
import { SF, SF_RUN, sleep, userInput } from './test-deployment';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

/** No stream may stay open longer than this, outage or not. */
const STREAM_BOUND_MS = 30_000;

interface SseEvent {
  id?: string;
  event: string;
  data: unknown;
}

/** One run-creating request's answer: its status, and the events of its stream when it had one. */
interface Created {
  replica: number;
  threadId: string;
  strategy: 'rollback' | 'none';
  status: number;
  retryAfter: string | null;
  runId?: string;
  events: SseEvent[];
  hung: boolean;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .flatMap((block) => {
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
      }
      const event = fields.get('event');
      if (!event) return [];
      const raw = fields.get('data') ?? 'null';
      let data: unknown = raw;
      try {
        data = JSON.parse(raw);
      } catch {
        // A heartbeat or a plain-text error stays text.
      }
      return [{ id: fields.get('id'), event, data }];
    });
}

const messageCount = (event: SseEvent) =>
  event.event === 'values' ? ((event.data as { messages?: unknown[] }).messages?.length ?? 0) : 0;

/**
 * Two replicas on Postgres + a Redis of the test's own, with double-texts (a run, then a
 * rollback run on the other replica) streaming on several threads while Redis is killed and
 * started again (empty: the test servers keep nothing on disk).
 */
describe.skipIf(replicaServicesMissing)(
  'two replicas while Redis is stopped and started again (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    const cluster = createTestReplicas({ leaseMs: 3_000, stepMs: 150 });
    let redis: PrivateService;
    const exitCodes: (number | null | 'alive')[] = [];

    beforeAll(async () => {
      redis = await startPrivateService('redis');
      await cluster.createDatabase();
      await Promise.all([
        cluster.start({ REDIS_URI: redis.url }),
        cluster.start({ REDIS_URI: redis.url }),
      ]);
      cluster.replicas.forEach((replica, index) => {
        exitCodes[index] = 'alive';
        void replica.exited.then((code) => (exitCodes[index] = code));
      });
    }, 60_000);

    afterAll(async () => {
      await cluster.stop();
      await redis?.remove();
    });

    const output = () => cluster.replicas.map((replica) => replica.output()).join('\n---\n');

    async function newThread(replica: number): Promise<string | undefined> {
      const response = await fetch(`${cluster.urls[replica]}/threads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(10_000),
      }).catch(() => undefined);
      if (response?.status !== 200) return undefined;
      return ((await response.json()) as { thread_id: string }).thread_id;
    }

    /** Creates a streaming run and reads its stream to the end (or the bound). */
    async function streamRun(
      replica: number,
      threadId: string,
      strategy: Created['strategy'],
    ): Promise<Created> {
      const created: Created = {
        replica,
        threadId,
        strategy,
        status: 0,
        retryAfter: null,
        events: [],
        hung: false,
      };
      try {
        const response = await fetch(`${cluster.urls[replica]}/threads/${threadId}/runs/stream`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            assistant_id: 'agent',
            input: userInput(SF),
            stream_mode: ['values'],
            ...(strategy === 'rollback' && { multitask_strategy: 'rollback' }),
          }),
          signal: AbortSignal.timeout(STREAM_BOUND_MS),
        });
        created.status = response.status;
        created.retryAfter = response.headers.get('retry-after');
        const text = await response.text();
        if (response.status === 200) {
          created.events = parseSse(text);
          created.runId = /\/runs\/([^/]+)$/.exec(
            response.headers.get('content-location') ?? '',
          )?.[1];
        } else {
          created.events = [{ event: 'body', data: text }];
        }
      } catch (error) {
        created.hung = error instanceof Error && error.name === 'TimeoutError';
        if (!created.hung) created.events.push({ event: 'fetch-error', data: String(error) });
      }
      return created;
    }

    /** A double-text on a fresh thread: run 1 on one replica, then a rollback run on the other. */
    async function doubleText(first: number): Promise<Created[]> {
      const threadId = await newThread(first);
      if (!threadId) return [];
      const run1 = streamRun(first, threadId, 'none');
      await sleep(250);
      const run2 = streamRun(1 - first, threadId, 'rollback');
      return Promise.all([run1, run2]);
    }

    /** The run's status on a replica, 404 once rolled back; polled until it has finished. */
    async function finalStatus(threadId: string, runId: string): Promise<number | string> {
      const deadline = Date.now() + 20_000;
      let last: number | string = 'unknown';
      while (Date.now() < deadline) {
        const response = await fetch(`${cluster.urls[0]}/threads/${threadId}/runs/${runId}`, {
          signal: AbortSignal.timeout(5_000),
        }).catch(() => undefined);
        if (response?.status === 404) return 404;
        if (response?.status === 200) {
          last = ((await response.json()) as { status: string }).status;
          if (!['pending', 'running'].includes(last)) return last;
        }
        await sleep(250);
      }
      return last;
    }

    it('keeps both replicas alive, ends every stream truthfully and refuses creates with 503 while Redis is away', async () => {
      const flows: Promise<Created[]>[] = [];
      let running = true;
      const loop = async (first: number) => {
        const all: Created[] = [];
        while (running) all.push(...(await doubleText(first)));
        return all;
      };
      flows.push(loop(0), loop(1), loop(0), loop(1), loop(0), loop(1));
      await sleep(1_500);
      await redis.stop();
      await sleep(4_000);
      await redis.start();
      await sleep(1_500);
      running = false;
      const created = (await Promise.all(flows)).flat();

      expect(exitCodes, output()).toEqual(['alive', 'alive']);
      expect(created.filter((one) => one.hung)).toEqual([]);
      // A create is answered, or refused with 503 and when to come back: never a 500.
      for (const one of created) {
        expect([200, 503], JSON.stringify(one)).toContain(one.status);
        if (one.status === 503) expect(Number(one.retryAfter)).toBeGreaterThan(0);
      }
      const streamed = created.filter((one) => one.status === 200 && one.runId);
      for (const one of streamed) {
        const status = await finalStatus(one.threadId, one.runId ?? '');
        const last = one.events.at(-1);
        const endedClean = last?.event !== 'error';
        const describe = JSON.stringify({ ...one, status, events: one.events.map((e) => e.event) });
        // A rolled-back run's stream never ends as if the run had finished.
        if (status === 404) expect(endedClean, describe).toBe(false);
        if (endedClean) {
          // A stream that ends without an error has every event: ids 0.. in order, the whole run.
          const ids = one.events.map((event) => Number(event.id));
          expect(ids, describe).toEqual(ids.map((_id, index) => index));
          expect(status, describe).toBe('success');
          // The whole run: its exchange on the thread, after run 1's when run 1 had finished
          // before the rollback came (then there was nothing to roll back).
          expect([SF_RUN.length, 2 * SF_RUN.length], describe).toContain(
            messageCount(one.events.at(-1) ?? { event: '', data: null }),
          );
        }
      }

      // After recovery: new runs stream in full on both replicas.
      for (const replica of [0, 1]) {
        const threadId = await newThread(replica);
        expect(threadId).toBeDefined();
        const after = await streamRun(replica, threadId ?? '', 'none');
        expect(after.status, JSON.stringify(after)).toBe(200);
        expect(after.events.at(-1)?.event, JSON.stringify(after)).not.toBe('error');
        expect(messageCount(after.events.at(-1) ?? { event: '', data: null })).toBe(SF_RUN.length);
      }
      expect(exitCodes, output()).toEqual(['alive', 'alive']);
      expect(output()).not.toMatch(/^\s+at /m);
    }, 90_000);
  },
);
