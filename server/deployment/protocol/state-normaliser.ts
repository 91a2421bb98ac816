import { isRecord } from '../wire/json-contains';

const MESSAGE_TYPES = new Set(['human', 'ai', 'tool', 'system', 'function', 'remove', 'developer']);
const TYPE_ALIASES: Record<string, string> = { user: 'human', assistant: 'ai' };

const messageType = (value: unknown) =>
  typeof value === 'string' ? (TYPE_ALIASES[value] ?? value) : undefined;

const isStateMessage = (value: unknown): value is Record<string, unknown> =>
  isRecord(value) && MESSAGE_TYPES.has(messageType(value.type) ?? '');

const nonEmpty = (value: unknown) =>
  (Array.isArray(value) && value.length > 0) || (isRecord(value) && Object.keys(value).length > 0);

/** `{id, name, args, type: "tool_call"}` for each call that has a name. */
function toolCalls(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).flatMap((call) =>
    typeof call.name === 'string'
      ? [
          {
            ...(typeof call.id === 'string' && { id: call.id }),
            name: call.name,
            args: call.args ?? {},
            type: 'tool_call',
          },
        ]
      : [],
  );
}

/**
 * A state message as the official server's protocol sessions send it
 * (`normalizeProtocolStateMessage`): `type`, `content`, `id`, and only the fields that carry
 * something (`tool_calls`, `response_metadata`, a tool message's `tool_call_id` and `status`).
 */
export function normaliseStateMessage(message: Record<string, unknown>): Record<string, unknown> {
  const type = messageType(message.type) ?? 'ai';
  const content = message.content ?? '';
  const out: Record<string, unknown> = { type, content };
  if (typeof message.id === 'string') out.id = message.id;
  if (typeof message.name === 'string') out.name = message.name;
  if (nonEmpty(message.response_metadata)) out.response_metadata = message.response_metadata;
  if (type === 'tool') {
    if (typeof message.tool_call_id === 'string') out.tool_call_id = message.tool_call_id;
    if (message.status === 'success' || message.status === 'error') out.status = message.status;
    if ('artifact' in message) out.artifact = message.artifact;
  }
  if (type === 'ai') {
    const calls = toolCalls(message.tool_calls);
    if (calls.length > 0) out.tool_calls = calls;
    if (nonEmpty(message.invalid_tool_calls)) out.invalid_tool_calls = message.invalid_tool_calls;
  }
  return out;
}

/** `values` / `updates` data: `__interrupt__` dropped, messages normalised at any depth. */
export function normaliseState(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) =>
      isStateMessage(item) ? normaliseStateMessage(item) : normaliseState(item),
    );
  }
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '__interrupt__')
      .map(([key, entry]) => [key, normaliseState(entry)]),
  );
}
