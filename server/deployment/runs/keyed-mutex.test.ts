import { expect, it } from 'vitest';
import { createKeyedMutex } from './keyed-mutex';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

it('runs tasks of one key one after another, and of different keys side by side', async () => {
  const withLock = createKeyedMutex();
  const log: string[] = [];
  const task = (name: string) => async () => {
    log.push(`${name} start`);
    await tick();
    log.push(`${name} end`);
  };

  await Promise.all([
    withLock('a', task('a1')),
    withLock('a', task('a2')),
    withLock('b', task('b1')),
  ]);

  expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
  expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
});

it('keeps the queue going after a task fails', async () => {
  const withLock = createKeyedMutex();
  const failing = withLock('a', async () => {
    throw new Error('boom');
  });
  const next = withLock('a', async () => 'ran');
  await expect(failing).rejects.toThrow('boom');
  await expect(next).resolves.toBe('ran');
});
