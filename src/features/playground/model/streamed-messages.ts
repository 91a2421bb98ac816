import { contentToText } from './message-content';
import { parseThreadMessages, type ThreadMessage } from './thread-messages';

export type RunNumber = 1 | 2;

/** A message as it arrived on a run's stream: which run streamed it first, and when. */
export interface StreamedMessage {
  run: RunNumber;
  /** Milliseconds after the flow started. */
  atMs: number;
  key: string;
  message: ThreadMessage;
}

/**
 * What identifies a message across `values` events and the final thread state: its id, or (a
 * deployment may send none) its type and content.
 */
export function messageKey(message: ThreadMessage): string {
  return message.id ?? `${message.type}:${JSON.stringify(message.content)}`;
}

/**
 * The messages of a `values` event not seen before, in order. A `values` event carries the whole
 * state, so run 2's first event repeats what run 1 left: `seen` keeps each message with the first
 * run that streamed it. `seen` is updated.
 */
export function takeNewMessages(values: unknown, seen: Set<string>): ThreadMessage[] {
  const fresh: ThreadMessage[] = [];
  for (const message of parseThreadMessages({ values })) {
    const key = messageKey(message);
    if (seen.has(key)) continue;
    seen.add(key);
    fresh.push(message);
  }
  return fresh;
}

const MAX_SUMMARY = 60;

/** `Human: what's the weather in sf?`, `AI · tool call get_weather`: one timeline line's words. */
export function summarizeMessage(message: ThreadMessage): string {
  const text = contentToText(message.content).replace(/\s+/g, ' ').trim();
  const short = text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
  switch (message.type) {
    case 'human':
      return `Human: ${short}`;
    case 'ai':
      if (message.tool_calls.length > 0) {
        return `AI · tool call ${message.tool_calls.map((call) => call.name).join(', ')}`;
      }
      return `AI: ${short}`;
    case 'tool':
      return `Tool result${message.name ? ` · ${message.name}` : ''}: ${short}`;
    case 'system':
      return `System: ${short}`;
    case 'other':
      return `${message.originalType}: ${short}`;
  }
}
