import type { LimitAlertPayload } from '@contracts/usage/usage-limits';
import type { DeliveryAttempt } from '../store/usage-limit-store';
import { SIGNATURE_HEADER, signAlert } from './alert-signature';

export interface WebhookConfig {
  url: string;
  secret: string;
  /** Attempts in all (the first and the retries). */
  attempts: number;
  /** Wait before the first retry; doubled for each next one. */
  baseDelayMs: number;
  timeoutMs: number;
}

/** Answers worth another try: the receiver is down or busy. Other 4xx are final. */
const retryable = (status: number | null) =>
  status === null || status >= 500 || status === 429 || status === 408;

/**
 * POSTs the alert as JSON, signed (see alert-signature.ts), retrying with exponential backoff
 * while the answer is retryable; every attempt goes to `record`. The body holds the payload
 * only: never an API key, and the request carries none. Resolves true once delivered (2xx).
 */
export async function deliverAlert(
  config: WebhookConfig,
  payload: LimitAlertPayload,
  record: (attempt: DeliveryAttempt) => Promise<void>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
): Promise<boolean> {
  const body = JSON.stringify(payload);
  for (let attempt = 1; attempt <= config.attempts; attempt += 1) {
    const attemptedAt = new Date();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'usage-console-alerts/1',
          'x-usage-alert-id': payload.alert_id,
          'x-usage-delivery-attempt': String(attempt),
          [SIGNATURE_HEADER]: signAlert(
            config.secret,
            body,
            Math.floor(attemptedAt.getTime() / 1000),
          ),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(config.timeoutMs),
      });
      status = response.status;
      await response.body?.cancel();
      if (!response.ok) error = `The receiver answered ${status}.`;
    } catch (cause) {
      error = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    }
    const ok = error === null;
    await record({ alertId: payload.alert_id, attempt, attemptedAt, status, ok, error });
    if (ok) return true;
    if (!retryable(status) || attempt === config.attempts) return false;
    await sleep(config.baseDelayMs * 2 ** (attempt - 1));
  }
  return false;
}
