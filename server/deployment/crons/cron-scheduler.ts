import { inBackground } from '@server/lib/in-background';
import type { CronStore } from '../store/deployment-store';
import type { CronRecord } from '../store/records';
import { nextRunDate } from './cron-schedule';

export interface CronScheduler {
  /** Fires what is due now (also called by the timer). */
  tick(): Promise<void>;
  stop(): void;
}

/**
 * Checks the crons every `intervalMs` and fires the due ones. A cron's next firing is stored
 * before it fires, so a firing that fails (or a crash mid-firing) is not repeated: at most once
 * per scheduled time, as a scheduler that must not double-bill should be. Missed firings while
 * the server was down are not caught up: the next one is computed from now.
 */
export function createCronScheduler(options: {
  crons: CronStore;
  fire: (cron: CronRecord) => Promise<'fired' | 'gone'>;
  intervalMs?: number;
  onError?: (cron: CronRecord, error: unknown) => void;
}): CronScheduler {
  const { crons, fire } = options;
  let running: Promise<void> | undefined;

  async function fireDue(): Promise<void> {
    const now = new Date();
    for (const cron of await crons.due(now.toISOString())) {
      await crons.update(cron.cron_id, {
        next_run_date: nextRunDate(cron.schedule, now, cron.end_time),
      });
      try {
        // A thread cron whose thread was deleted can never fire again.
        if ((await fire(cron)) === 'gone') await crons.delete(cron.cron_id);
      } catch (error) {
        options.onError?.(cron, error);
      }
    }
  }

  const tick = () => (running ??= fireDue().finally(() => (running = undefined)));
  const timer = setInterval(
    () => inBackground('Crons could not be read', tick()),
    options.intervalMs ?? 1000,
  );
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}
