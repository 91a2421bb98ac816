import { expect, it } from 'vitest';
import { createProcessThreadLock } from './thread-lock';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

it('answers the caller before the follow-up, which still holds the lock', async () => {
  const withLock = createProcessThreadLock();
  const log: string[] = [];
  const first = withLock(
    'thread',
    async () => 'run',
    async () => {
      log.push('then start');
      await tick();
      log.push('then end');
    },
  ).then((result) => log.push(`answered ${result}`));
  const second = withLock('thread', async () => {
    log.push('next task');
  });
  await Promise.all([first, second]);
  expect(log).toEqual(['then start', 'answered run', 'then end', 'next task']);
});

it('skips the follow-up when the task fails, and passes the failure on', async () => {
  const withLock = createProcessThreadLock();
  let followed = false;
  const failing = withLock(
    'thread',
    async () => {
      throw new Error('refused');
    },
    async () => {
      followed = true;
    },
  );
  await expect(failing).rejects.toThrow('refused');
  await expect(withLock('thread', async () => 'next')).resolves.toBe('next');
  expect(followed).toBe(false);
});
