import type { MessageContent } from '@contracts/deployment';

/**
 * Flattens a message's content to readable text: a string is kept as is; in an array of parts,
 * text parts give their text and any other part (image, audio...) a `[type]` placeholder.
 */
export function contentToText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      if (part.type === 'text' && typeof part.text === 'string') return part.text;
      return `[${part.type}]`;
    })
    .filter((text) => text !== '')
    .join('\n');
}
