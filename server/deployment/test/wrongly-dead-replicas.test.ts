import type { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageCount, type Part } from './stream-parts';
import { SF, SF_RUN, conversation, sleep, userInput } from './test-deployment';
import { startLivenessBlockingProxy } from './liveness-blocking-proxy';
import { createTestReplicas, replicaServicesMissing } from './test-replicas';

const attemptOf = (part: Part) => (part.data as { attempt?: number }).attempt;

describe.skipIf(replicaServicesMissing)(
  'a live replica taken for dead (skipped: TEST_DATABASE_URI or TEST_REDIS_URI unset)',
  () => {
    // The default lease: the takeover comes from the liveness scan, long before the lease ends.
    const cluster = createTestReplicas({ leaseMs: 30_000, stepMs: 2_000 });
    let proxy: Awaited<ReturnType<typeof startLivenessBlockingProxy>>;
    let taken: Client;
    let survivor: Client;

    beforeAll(async () => {
      await cluster.createDatabase();
      proxy = await startLivenessBlockingProxy(
        cluster.databaseUri(),
        'deployment replica liveness',
      );
      taken = await cluster.start({ DATABASE_URI: proxy.via(cluster.databaseUri()) });
      survivor = await cluster.start();
    });
    afterAll(async () => {
      await cluster.stop();
      await proxy.close();
    });

    it('stops its own copy of the run: the stream shows each event once, one run wins', async () => {
      const { thread_id } = await taken.threads.create();
      const run = await taken.runs.create(thread_id, 'agent', { input: userInput(SF) });
      const parts: Part[] = [];
      let cutAt: number | undefined;
      let restored: Promise<void> | undefined;
      for await (const part of survivor.runs.joinStream(thread_id, run.run_id)) {
        if ((part as Part).event !== '') parts.push(part as Part);
        // The tool call is out, two model steps from the end: its liveness session is cut and
        // stays away well past the others' grace, so they take the run over while this replica
        // lives on, executing its copy.
        if (cutAt === undefined && messageCount(part as Part) === 2) {
          proxy.refuse(true);
          cutAt = Date.now();
          restored = sleep(4_000).then(() => proxy.refuse(false));
        }
      }
      await restored;
      console.info(
        `wrongly-dead-replicas: stream ended ${Date.now() - (cutAt ?? 0)} ms after the cut`,
      );

      // Every event once, numbered without a gap or a repeat.
      expect(parts.map((part) => part.id)).toEqual(parts.map((_, index) => String(index)));
      // The first attempt's events up to the takeover, then the second attempt, whole, alone.
      expect(parts.filter((part) => part.event === 'metadata').map(attemptOf)).toEqual([1, 2]);
      const restart = parts.findIndex((part, index) => index > 0 && part.event === 'metadata');
      expect(parts.slice(restart + 1).map((part) => part.event)).toEqual([
        'values',
        'values',
        'values',
        'values',
      ]);
      const settled = await survivor.runs.get(thread_id, run.run_id);
      expect(settled.status).toBe('success');
      // One copy's checkpoints: the conversation once, as either replica reads it.
      expect(await conversation(survivor, thread_id)).toEqual(SF_RUN);
      expect(await conversation(taken, thread_id)).toEqual(SF_RUN);
      // The taken replica wrote nothing later either: the run keeps its end.
      await sleep(3_000);
      expect((await survivor.runs.get(thread_id, run.run_id)).updated_at).toBe(settled.updated_at);
      expect(await conversation(survivor, thread_id)).toEqual(SF_RUN);
    }, 60_000);
  },
);
