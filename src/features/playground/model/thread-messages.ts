import {
  messageContentSchema,
  messageSchema,
  type Message,
  type MessageContent,
} from '@contracts/deployment';

/** A message kind this panel does not draw specially (function, remove, chat...), kept visible. */
export interface OtherMessage {
  type: 'other';
  originalType: string;
  id?: string | null;
  content: MessageContent;
}

export type ThreadMessage = Message | OtherMessage;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads `values.messages` of a thread state message by message, so one message of a kind the
 * contract does not know (a real deployment may send any) does not hide the others.
 */
export function parseThreadMessages(state: unknown): ThreadMessage[] {
  if (!isRecord(state) || !isRecord(state.values)) return [];
  const { messages } = state.values;
  if (!Array.isArray(messages)) return [];
  return messages.map((raw: unknown): ThreadMessage => {
    const parsed = messageSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const record = isRecord(raw) ? raw : {};
    const content = messageContentSchema.safeParse(record.content);
    return {
      type: 'other',
      originalType: typeof record.type === 'string' ? record.type : 'unknown',
      id: typeof record.id === 'string' ? record.id : null,
      content: content.success ? content.data : JSON.stringify(record.content ?? raw),
    };
  });
}
