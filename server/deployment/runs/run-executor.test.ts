import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunStore } from '../store/deployment-store';
import { createRunEvents } from './run-events';
import { createRunExecutor } from './run-executor';
import { createRunStreamLog } from './run-stream-log';

/** An executor whose thread lock fails as a lost database connection does. */
function executorWithFailingLock() {
  const lock = vi.fn(() => Promise.reject(new Error('Connection terminated unexpectedly')));
  const executor = createRunExecutor({
    graphFor: () => Promise.reject(new Error('no graph here')),
    runs: {} as RunStore,
    withThreadLock: lock,
    events: createRunEvents(),
    streams: createRunStreamLog(),
  });
  return { executor, lock };
}

describe('starting a thread’s next run (fire and forget)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('survives a database error: the kick settles, the error is logged, nothing rejects', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { executor } = executorWithFailingLock();
    await expect(executor.kick('thread-1')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('Connection terminated unexpectedly'),
    );
  });

  it('does not take the lock once the executor is closed (its pools may be gone)', async () => {
    const { executor, lock } = executorWithFailingLock();
    await executor.close();
    await executor.kick('thread-1');
    expect(lock).not.toHaveBeenCalled();
  });
});
