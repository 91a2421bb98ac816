import type { RunRecord } from '../store/records';
import { serializeRun } from '../wire/serialize';

interface CompletionDeps {
  removeThread: (threadId: string) => void;
  /** Where webhook failures go; they never affect the run. */
  log?: (message: string) => void;
}

const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * What happens once a run has finished (not when rolled back): its `webhook` gets the run and
 * its final values (POST, JSON, as the platform sends it), and a stateless run's temporary
 * thread is deleted.
 */
export function createRunCompletion({ removeThread, log = console.warn }: CompletionDeps) {
  return (run: RunRecord, values: unknown) => {
    const { webhook, temporary } = run.kwargs;
    if (webhook) {
      const body = { ...serializeRun(run), values, webhook_sent_at: new Date().toISOString() };
      fetch(webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      }).catch((error: unknown) =>
        log(`Webhook ${webhook} of run ${run.run_id} failed: ${String(error)}`),
      );
    }
    if (temporary) removeThread(run.thread_id);
  };
}
