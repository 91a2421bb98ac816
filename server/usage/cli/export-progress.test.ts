import { describe, expect, it } from 'vitest';
import { createExportProgress } from './export-progress';

/** A stream that records what was written, and a clock the test moves. */
function harness(isTTY: boolean) {
  const written: string[] = [];
  let clock = 0;
  const progress = createExportProgress(
    { isTTY, write: (chunk: string) => written.push(chunk) },
    () => clock,
  );
  const after = (ms: number, bytes: number) => {
    clock += ms;
    progress.update(bytes);
  };
  return { written, after, progress, finishAt: (ms: number) => (clock = ms) };
}

describe('export progress', () => {
  it('on a terminal, redraws one line in place at most twice a second, then the summary', () => {
    const { written, after, progress, finishAt } = harness(true);
    after(100, 1_000_000);
    after(500, 2_500_000);
    after(100, 3_000_000);
    after(500, 12_340_000);
    finishAt(2_000);
    progress.done(20_000_000, 'usage.csv');
    expect(written).toEqual(['\r2.5 MB', '\r12.3 MB', '\r20.0 MB in 2.0 s -> usage.csv\n']);
  });

  it.each([
    ['to a file', 'usage.csv', '5.0 MB in 3.0 s -> usage.csv\n'],
    ['to stdout', undefined, '5.0 MB in 3.0 s\n'],
  ])('elsewhere (a pipe, a log), writes only the summary line, %s', (_, out, summary) => {
    const { written, after, progress, finishAt } = harness(false);
    for (let step = 1; step <= 5; step += 1) after(600, step * 1_000_000);
    finishAt(3_000);
    progress.done(5_000_000, out);
    expect(written).toEqual([summary]);
    expect(written.join('')).not.toContain('\r');
  });
});
