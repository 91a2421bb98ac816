import type { RunRecord } from '../store/records';
import type { WebhookSender } from '../webhooks/deliver-webhook';
import { serializeRun } from '../wire/serialize';

interface CompletionDeps {
  removeThread: (threadId: string) => void;
  /** Delivers a webhook under the webhook rules (deliver-webhook). */
  sendWebhook: WebhookSender['send'];
  /** Where webhook failures go; they never affect the run. */
  log?: (message: string) => void;
}

/**
 * What happens once a run has finished (not when rolled back): its `webhook` gets the run and
 * its final values (POST, JSON, as the platform sends it), and a stateless run's temporary
 * thread is deleted.
 */
export function createRunCompletion({
  removeThread,
  sendWebhook,
  log = console.warn,
}: CompletionDeps) {
  return (run: RunRecord, values: unknown) => {
    const { webhook, temporary } = run.kwargs;
    if (webhook) {
      const body = { ...serializeRun(run), values, webhook_sent_at: new Date().toISOString() };
      void sendWebhook(webhook, JSON.stringify(body)).then((delivery) => {
        if (!delivery.ok) log(`Webhook ${webhook} of run ${run.run_id} failed: ${delivery.reason}`);
      });
    }
    if (temporary) removeThread(run.thread_id);
  };
}
