import { randomUUID } from 'node:crypto';

/**
 * `count` new root runs of `project` as the langsmith SDK's batch body carries them (about 450
 * bytes each), for the ingestion benchmarks.
 */
export function rootRunsBatch(count: number, project: string): string {
  const now = Date.now();
  const stamp = new Date(now).toISOString().replace(/[-:.]/g, '').replace('Z', '000Z');
  const runs = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    return {
      id,
      trace_id: id,
      dotted_order: `${stamp}${id}`,
      name: 'agent',
      run_type: 'chain',
      start_time: now,
      end_time: now + 1,
      inputs: { messages: [{ role: 'user', content: `question ${i}` }] },
      outputs: { messages: [{ role: 'ai', content: 'It is 60 degrees and foggy.' }] },
      session_name: project,
      extra: { metadata: { ls_run_depth: 0 }, runtime: { sdk: 'langsmith-js' } },
    };
  });
  return JSON.stringify({ post: runs, patch: [] });
}
