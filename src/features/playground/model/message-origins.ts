import { messageKey, type RunNumber, type StreamedMessage } from './streamed-messages';
import type { ThreadMessage } from './thread-messages';

/** A message shown in a list: which run wrote it (null: not seen on a stream) and its flags. */
export interface MessageEntry {
  key: string;
  message: ThreadMessage;
  run: RunNumber | null;
  /** An AI tool call with no tool answer after it: a provider rejects such a history. */
  unansweredToolCall: boolean;
}

/**
 * Keys of the AI messages whose tool calls are not all answered by a later tool message, as
 * happens when a run is interrupted mid-tool.
 */
export function unansweredToolCalls(messages: ThreadMessage[]): Set<string> {
  const flagged = new Set<string>();
  messages.forEach((message, index) => {
    if (message.type !== 'ai' || message.tool_calls.length === 0) return;
    const answered = new Set(
      messages
        .slice(index + 1)
        .flatMap((later) => (later.type === 'tool' ? [later.tool_call_id] : [])),
    );
    if (message.tool_calls.some((call) => call.id === undefined || !answered.has(call.id))) {
      flagged.add(messageKey(message));
    }
  });
  return flagged;
}

function toEntries(
  messages: ThreadMessage[],
  runOf: (key: string) => RunNumber | null,
  { flag }: { flag: boolean },
): MessageEntry[] {
  // Only a history a model will read can be rejected: erased messages are in none.
  const unanswered = flag ? unansweredToolCalls(messages) : new Set<string>();
  return messages.map((message) => {
    const key = messageKey(message);
    return { key, message, run: runOf(key), unansweredToolCall: unanswered.has(key) };
  });
}

/**
 * Splits what was streamed against what the thread holds at the end: `kept` is the thread, each
 * message with the run that streamed it; `erased` is what run 1 streamed that the thread no longer
 * holds (a rollback deletes run 1 with everything it wrote).
 */
export function describeMessages(
  threadMessages: ThreadMessage[],
  streamed: StreamedMessage[],
): { kept: MessageEntry[]; erased: MessageEntry[] } {
  const runByKey = new Map(streamed.map((item) => [item.key, item.run]));
  const kept = toEntries(threadMessages, (key) => runByKey.get(key) ?? null, { flag: true });
  const inThread = new Set(kept.map((entry) => entry.key));
  const erased = toEntries(
    streamed
      .filter((item) => item.run === 1 && !inThread.has(item.key))
      .map((item) => item.message),
    () => 1,
    { flag: false },
  );
  return { kept, erased };
}
