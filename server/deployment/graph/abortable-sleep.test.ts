import { describe, expect, it } from 'vitest';
import { abortableSleep } from './abortable-sleep';

describe('abortableSleep', () => {
  it('takes no time for 0 ms: 200 steps in well under the 200 ms that 1 ms timers would take', async () => {
    const started = performance.now();
    for (let i = 0; i < 200; i += 1) await abortableSleep(0, undefined);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('waits the time asked for', async () => {
    const started = performance.now();
    await abortableSleep(30, new AbortController().signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
  });

  it.each([0, 60_000])(
    'ends a %i ms step with the reason as soon as the signal aborts',
    async (ms) => {
      const controller = new AbortController();
      const sleeping = abortableSleep(ms, controller.signal);
      controller.abort(new Error('run cancelled'));
      await expect(sleeping).rejects.toThrow('run cancelled');
    },
  );

  it('refuses to start once the signal has aborted', async () => {
    await expect(abortableSleep(0, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});
