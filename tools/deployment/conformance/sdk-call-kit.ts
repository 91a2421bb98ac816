import type { Client } from '@langchain/langgraph-sdk';
import { check } from './conformance-kit';

/** What the calls share: the client, and ids made by earlier calls (a later call needs them). */
export interface CallContext {
  client: Client;
  graphId: string;
  ids: Partial<Record<'assistant' | 'thread' | 'run' | 'checkpoint' | 'cron', string>>;
}

export type CallArea = 'assistants' | 'threads' | 'runs' | 'store' | 'crons';

export interface SdkCall {
  area: CallArea;
  name: string;
  run: (ctx: CallContext) => Promise<void>;
}

export const QUESTION = 'weather in sf?';

export function need(ctx: CallContext, key: keyof CallContext['ids']): string {
  const id = ctx.ids[key];
  check(id !== undefined, `needs a ${key} made by an earlier call`);
  return id;
}

export async function collect(stream: AsyncIterable<{ event: string; data: unknown }>) {
  const events: string[] = [];
  for await (const chunk of stream) events.push(chunk.event);
  check(!events.includes('error'), `stream sent an error event: ${events.join(', ')}`);
  return events;
}

export const messagesOf = (values: unknown) =>
  (values as { messages?: unknown[] } | null)?.messages ?? [];

export const sdkCall =
  (area: CallArea) =>
  (name: string, run: SdkCall['run']): SdkCall => ({ area, name, run });
