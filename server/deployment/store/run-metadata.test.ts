import { emptyCheckpoint, MemorySaver, type Checkpoint } from '@langchain/langgraph-checkpoint';
import { describe, expect, it } from 'vitest';
import { withRunMetadata } from './run-metadata';

/** A saver whose writes land `ms` after they are made, as over a network (Postgres). */
class SlowSaver extends MemorySaver {
  constructor(private readonly ms: number) {
    super();
  }
  override async put(...args: Parameters<MemorySaver['put']>) {
    await new Promise((resolve) => setTimeout(resolve, this.ms));
    return super.put(...args);
  }
}

const config = (runId: string) => ({
  configurable: { thread_id: 'thread-1', checkpoint_ns: '', run_id: runId },
});
// Time-ordered ids (uuid6), as LangGraph's: the latest checkpoint is the one with the greatest.
const checkpoint = (): Checkpoint => emptyCheckpoint();

describe('a stopped run’s checkpoint writes', () => {
  it('land before `stopped` resolves when under way, and never when made after', async () => {
    const { saver, writes } = withRunMetadata(new SlowSaver(50));
    writes.started('run-1');
    const underWay = checkpoint();
    const write = saver.put(
      config('run-1'),
      underWay,
      { source: 'loop', step: 0, parents: {} },
      {},
    );

    await writes.stopped('run-1');
    const stored = await saver.getTuple({ configurable: { thread_id: 'thread-1' } });
    expect(stored?.checkpoint.id).toBe(underWay.id);
    await write;

    await saver.put(config('run-1'), checkpoint(), { source: 'loop', step: 1, parents: {} }, {});
    await saver.putWrites(config('run-1'), [['messages', 'late']], 'task-1');
    const after = await saver.getTuple({ configurable: { thread_id: 'thread-1' } });
    expect(after?.checkpoint.id).toBe(underWay.id);
    expect(after?.pendingWrites).toEqual([]);
  });

  it('are taken again when the run starts over, and other runs’ writes are never refused', async () => {
    const { saver, writes } = withRunMetadata(new SlowSaver(0));
    await writes.stopped('run-1');
    const other = checkpoint();
    await saver.put(config('run-2'), other, { source: 'loop', step: 0, parents: {} }, {});
    expect((await saver.getTuple({ configurable: { thread_id: 'thread-1' } }))?.checkpoint.id).toBe(
      other.id,
    );

    writes.started('run-1');
    const again = checkpoint();
    await saver.put(config('run-1'), again, { source: 'loop', step: 1, parents: {} }, {});
    expect((await saver.getTuple({ configurable: { thread_id: 'thread-1' } }))?.checkpoint.id).toBe(
      again.id,
    );
  });
});
