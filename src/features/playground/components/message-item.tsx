import { contentToText } from '@/features/playground/model/message-content';
import type { ThreadMessage } from '@/features/playground/model/thread-messages';

function Text({ text }: { text: string }) {
  return text === '' ? null : <p className="message-text">{text}</p>;
}

/** One message of the thread as a chat bubble; its kind is the first words read. */
export function MessageItem({ message }: { message: ThreadMessage }) {
  const text = contentToText(message.content);
  switch (message.type) {
    case 'human':
      return (
        <li className="message message-human">
          <span className="message-kind">Human</span>
          <Text text={text} />
        </li>
      );
    case 'ai':
      return (
        <li className="message message-ai">
          <span className="message-kind">
            {message.tool_calls.length > 0 ? 'AI · tool call' : 'AI'}
          </span>
          <Text text={text} />
          {message.tool_calls.length > 0 && (
            <ul className="tool-calls" aria-label="Tool calls">
              {message.tool_calls.map((toolCall, index) => (
                <li key={toolCall.id ?? index} className="tool-chip">
                  <span className="tool-chip-name">{toolCall.name}</span>
                  <code className="tool-chip-args">{JSON.stringify(toolCall.args)}</code>
                </li>
              ))}
            </ul>
          )}
        </li>
      );
    case 'tool':
      return (
        <li className="message message-tool">
          <span className="message-kind">
            Tool result{message.name ? ` · ${message.name}` : ''}
          </span>
          <Text text={text} />
        </li>
      );
    case 'system':
      return (
        <li className="message message-system">
          <span className="message-kind">System</span>
          <Text text={text} />
        </li>
      );
    case 'other':
      return (
        <li className="message message-system">
          <span className="message-kind">{message.originalType}</span>
          <Text text={text} />
        </li>
      );
  }
}
