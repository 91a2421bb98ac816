import type { Client } from '@langchain/langgraph-sdk';

/** One SSE event as the SDK yields it (`id` set when the server numbered it). */
export interface Part {
  id?: string;
  event: string;
  data: unknown;
}

/** Every part of an SDK stream, in order. */
export async function collect(parts: AsyncIterable<unknown>): Promise<Part[]> {
  const seen: Part[] = [];
  for await (const part of parts) seen.push(part as Part);
  return seen;
}

/** The message count of a `values` event (0 for any other event). */
export function messageCount(part: Part): number {
  if (part.event !== 'values') return 0;
  const { messages } = part.data as { messages?: unknown[] };
  return messages?.length ?? 0;
}

/** The run id the `metadata` event (the first one) carries. */
export function runIdOf(parts: Part[]): string {
  const first = parts[0];
  if (first?.event !== 'metadata') throw new Error(`first event is ${first?.event}`);
  return (first.data as { run_id: string }).run_id;
}

/** The status a run answers with, or 404 once it is gone. */
export async function runStatus(client: Client, threadId: string, runId: string) {
  try {
    return (await client.runs.get(threadId, runId)).status;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return 404;
    throw error;
  }
}

/** Waits until `check` holds (polled every 10 ms); fails after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Reads a stream until `stop` says so; resolves with what was read and when it ended. */
export async function readUntil(stream: AsyncIterable<unknown>, stop: (part: Part) => boolean) {
  const parts: Part[] = [];
  for await (const part of stream) {
    parts.push(part as Part);
    if (stop(part as Part)) break;
  }
  return parts;
}
