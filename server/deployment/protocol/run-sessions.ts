import type { RunStatus } from '@contracts/deployment';
import { createEventNormaliser } from './event-normaliser';
import type { ProtocolAdapter } from './protocol-adapter';
import type { ThreadChannel, ThreadChannels } from './thread-channels';

/** The root lifecycle a finished run ends with (none while it runs, or once it is deleted). */
function terminalOf(status: RunStatus | undefined, waitingForInput: boolean) {
  if (status === 'success') return waitingForInput ? 'interrupted' : 'completed';
  if (status === 'error') return 'failed';
  if (status === 'interrupted') return 'interrupted';
  return undefined;
}

interface SessionRun {
  threadId: string;
  runId: string;
  graphName: string;
}

/**
 * Streams protocol runs into their thread's channel: one run after another per thread (an
 * enqueued run's events follow the end of the one before), each framed by the root lifecycle:
 * `running` when it starts, then `completed`, `interrupted` (ended waiting for input, or
 * stopped) or `failed`. A rolled-back run's events are taken out of the thread's replay and it
 * sends no terminal lifecycle: it never happened (the official server sends none for a deleted
 * run either), and the next run's `running` follows.
 */
export function createRunSessions(channels: ThreadChannels, adapter: ProtocolAdapter) {
  const tails = new Map<string, Promise<void>>();
  const shutdown = new AbortController();

  async function stream(channel: ThreadChannel, { threadId, runId, graphName }: SessionRun) {
    const normaliser = createEventNormaliser(graphName);
    let end: 'failed' | 'rolled-back' | undefined;
    for await (const source of adapter.runEvents(runId, shutdown.signal)) {
      const normalised = normaliser.normalise(source);
      normalised.events.forEach((event) => channel.push(runId, event));
      end = normalised.end ?? end;
    }
    if (shutdown.signal.aborted || end === 'failed') return;
    const status = end === 'rolled-back' ? undefined : await adapter.runStatus(threadId, runId);
    if (status === undefined) {
      channel.forgetRun(runId);
      return;
    }
    const waiting =
      normaliser.hasPendingInput() ||
      ((await adapter.threadState(threadId))?.interrupts.length ?? 0) > 0;
    const event = terminalOf(status, waiting);
    if (event) {
      channel.push(runId, {
        method: 'lifecycle',
        namespace: [],
        data: { event, graph_name: graphName },
      });
    }
  }

  return {
    /** Starts streaming a run created through the protocol once the thread's previous one ends. */
    start(run: SessionRun): void {
      const channel = channels.of(run.threadId);
      channel.sessionStarted();
      const previous = tails.get(run.threadId) ?? Promise.resolve();
      const tail = previous
        .then(() => stream(channel, run))
        .catch((error: unknown) => {
          console.warn(`Protocol stream of run ${run.runId} failed: ${String(error)}`);
        })
        .finally(() => {
          channel.sessionEnded();
          if (tails.get(run.threadId) === tail) tails.delete(run.threadId);
        });
      tails.set(run.threadId, tail);
    },

    /** Stops every session (shutdown) and waits for them to settle. */
    async close(): Promise<void> {
      shutdown.abort();
      await Promise.allSettled([...tails.values()]);
    },
  };
}

export type RunSessions = ReturnType<typeof createRunSessions>;
