import type { Client } from '@langchain/langgraph-sdk';
import { type Message, threadStateSchema } from '@contracts/deployment';

/** What every conformance case gets: an SDK client bound to the deployment under test. */
export interface CaseContext {
  client: Client;
  assistantId: string;
  /** Delay for the "run 2 sent later" variant; lands while run 1 is still working. */
  laterMs: number;
}

/** Thrown by a case to fail with a readable reason. */
export class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
}

export function check(condition: boolean, reason: string): asserts condition {
  if (!condition) throw new ConformanceFailure(reason);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const userInput = (text: string) => ({ messages: [{ role: 'user', content: text }] });

/** HTTP status of an SDK error, or undefined when the call did not fail with one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

/** Runs `call` expecting an HTTP error; resolves with its status, fails the case otherwise. */
export async function expectHttpError(call: () => Promise<unknown>, what: string) {
  try {
    await call();
  } catch (error) {
    const status = httpStatusOf(error);
    check(status !== undefined, `${what}: failed without an HTTP status (${String(error)})`);
    return status;
  }
  throw new ConformanceFailure(`${what}: expected an HTTP error, got a success`);
}

/** The thread's messages, validated against the shared wire contract. */
export async function threadMessages(ctx: CaseContext, threadId: string): Promise<Message[]> {
  const state = threadStateSchema.safeParse(await ctx.client.threads.getState(threadId));
  check(state.success, `thread state does not match the contract: ${state.error?.message}`);
  return state.data.values.messages;
}

const textOf = (message: Message) =>
  typeof message.content === 'string' ? message.content : JSON.stringify(message.content);

/** One-line picture of a conversation for failure reasons: `human("sf?") ai[tool] tool ai`. */
export function describeMessages(messages: Message[]): string {
  return messages
    .map((m) =>
      m.type === 'human'
        ? `human(${JSON.stringify(textOf(m))})`
        : m.type === 'ai' && m.tool_calls.length > 0
          ? 'ai[tool_call]'
          : m.type,
    )
    .join(' ');
}

/**
 * Checks `messages` (or the slice starting at `from`) is exactly one weather exchange for
 * `question`: human, ai with a get_weather tool call, tool answering it, final ai.
 */
export function expectExchange(messages: Message[], question: string, from = 0) {
  const [human, call, result, answer, ...extra] = messages.slice(from);
  const seen = describeMessages(messages);
  check(
    human?.type === 'human' && textOf(human) === question,
    `expected human "${question}" at ${from}; got ${seen}`,
  );
  check(call?.type === 'ai' && call.tool_calls.length > 0, `expected ai tool call; got ${seen}`);
  check(
    result?.type === 'tool' && result.tool_call_id === call.tool_calls[0]?.id,
    `expected a tool message answering the call; got ${seen}`,
  );
  check(answer?.type === 'ai' && answer.tool_calls.length === 0, `expected final ai; got ${seen}`);
  check(extra.length === 0, `unexpected messages after the exchange; got ${seen}`);
}

/** Fails when any human message of the thread carries one of `foreign` texts. */
export function expectNoneOf(messages: Message[], foreign: string[]) {
  const found = messages.filter((m) => m.type === 'human' && foreign.includes(textOf(m)));
  check(found.length === 0, `messages of a deleted run remain: ${describeMessages(messages)}`);
}
