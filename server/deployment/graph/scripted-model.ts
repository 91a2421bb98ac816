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

/** Characters a free-form city name may contain ("st. louis", "o'fallon", "winston-salem"). */
function isCityChar(code: number): boolean {
  const lower = code | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || " .'-".includes(String.fromCharCode(code));
}
const TRAILING_PUNCTUATION = new Set(['?', '.', '!']);

/**
 * Finds the city a question names: a known alias, else the words after the first "in" that run
 * to the end (trailing spaces and ?.! dropped), else "unknown". A linear scan, not one regular
 * expression: a lazy group followed by `\s*[?.!]*$` backtracks quadratically on a long run of
 * spaces, and a single request could then block the event loop for seconds.
 */
export function cityFromText(text: string): string {
  for (const [pattern, city] of CITY_ALIASES) {
    if (pattern.test(text)) return city.key;
  }
  const body = text.trim();
  let end = body.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(body.charAt(end - 1))) end -= 1;
  end = body.slice(0, end).trimEnd().length;
  // The name is a suffix of body[0, end) made of city characters: find where that run starts.
  let nameRunStart = end;
  while (nameRunStart > 0 && isCityChar(body.charCodeAt(nameRunStart - 1))) nameRunStart -= 1;

  // `\bin\s+` matches in linear time: each attempt only scans one run of whitespace.
  for (const match of body.slice(0, end).matchAll(/\bin\s+/gi)) {
    const nameStart = match.index + match[0].length;
    if (nameStart >= nameRunStart && nameStart < end && /[a-z]/i.test(body.charAt(nameStart))) {
      return body.slice(nameStart, end).toLowerCase();
    }
  }
  return 'unknown';
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
