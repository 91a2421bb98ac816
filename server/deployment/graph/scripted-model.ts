import { AIMessage, type BaseMessage } from '@langchain/core/messages';

export interface City {
  key: string;
  name: string;
}

/** Aliases the scripted model understands, longest first so "new york city" beats "new york". */
const CITY_ALIASES: ReadonlyArray<readonly [RegExp, City]> = [
  [/\b(sf|san francisco)\b/i, { key: 'sf', name: 'San Francisco' }],
  [/\b(nyc|new york( city)?)\b/i, { key: 'nyc', name: 'New York' }],
  [/\b(la|los angeles)\b/i, { key: 'la', name: 'Los Angeles' }],
  [/\b(london)\b/i, { key: 'london', name: 'London' }],
  [/\b(paris)\b/i, { key: 'paris', name: 'Paris' }],
];

/** Finds the city a question names: a known alias, else the words after "in", else "unknown". */
export function cityFromText(text: string): string {
  for (const [pattern, city] of CITY_ALIASES) {
    if (pattern.test(text)) return city.key;
  }
  const after = /\bin\s+([a-z][a-z .'-]*?)\s*[?.!]*$/i.exec(text.trim());
  return after?.[1]?.toLowerCase() ?? 'unknown';
}

/** Plain text of a message's content, whether a string or an array of content blocks. */
export function contentText(message: BaseMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((block) => ('text' in block && typeof block.text === 'string' ? block.text : ''))
    .join(' ');
}

/**
 * The scripted, deterministic chat model: a human turn gets a `get_weather` tool call for the
 * city it names; a tool result gets the final answer quoting it. `callId` names the tool call.
 */
export function scriptedReply(messages: readonly BaseMessage[], callId: string): AIMessage {
  const last = messages.at(-1);
  if (last?.getType() === 'tool') {
    return new AIMessage({ content: `Here is the weather: ${contentText(last)}` });
  }
  if (last?.getType() === 'human') {
    const city = cityFromText(contentText(last));
    return new AIMessage({
      content: '',
      tool_calls: [{ id: callId, name: 'get_weather', args: { city }, type: 'tool_call' }],
    });
  }
  return new AIMessage({ content: 'Ask me about the weather in a city, for example "sf".' });
}
