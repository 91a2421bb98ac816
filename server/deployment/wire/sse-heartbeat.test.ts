import { describe, expect, it } from 'vitest';
import { heartbeatStream } from './sse-heartbeat';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bytes = (text: string) => new TextEncoder().encode(text);

/** Writes `chunks` with `gapMs` of silence after each, and returns what a reader got. */
async function through(chunks: string[], gapMs: number, intervalMs: number): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(bytes(chunk));
        await sleep(gapMs);
      }
      controller.close();
    },
  });
  let text = '';
  const decoder = new TextDecoder();
  const reader = source.pipeThrough(heartbeatStream(intervalMs)).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    text += decoder.decode(read.value);
  }
  return text;
}

describe('heartbeatStream', () => {
  it('writes a comment after each idle interval, between whole frames', async () => {
    const text = await through(['event: a\ndata: 1\n\n', 'event: b\ndata: 2\n\n'], 60, 20);
    const frames = text.split('\n\n').filter(Boolean);
    expect(frames[0]).toBe('event: a\ndata: 1');
    expect(frames.filter((frame) => frame === ': heartbeat').length).toBeGreaterThanOrEqual(2);
    expect(frames.filter((frame) => frame.startsWith('event:'))).toEqual([
      'event: a\ndata: 1',
      'event: b\ndata: 2',
    ]);
  });

  it('never writes inside a frame that arrives in pieces', async () => {
    const text = await through(['event: a\n', 'data: 1\n\n'], 60, 20);
    expect(text.startsWith('event: a\ndata: 1\n\n')).toBe(true);
  });

  it('writes nothing more once a busy stream ends', async () => {
    const text = await through(['data: 1\n\n', 'data: 2\n\n'], 0, 50);
    expect(text).toBe('data: 1\n\ndata: 2\n\n');
  });
});
