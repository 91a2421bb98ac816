import type { ReactNode } from 'react';
import { contentToText } from '@/features/playground/model/message-content';
import type { MessageEntry } from '@/features/playground/model/message-origins';
import type { ThreadMessage } from '@/features/playground/model/thread-messages';

function Text({ text }: { text: string }) {
  return text === '' ? null : <p className="message-text">{text}</p>;
}

/** Which run wrote a message and what is wrong with it, read after the message's kind. */
function EntryMarks({ entry, runNote }: { entry: MessageEntry; runNote?: string }) {
  return (
    <>
      {entry.run !== null && (
        <span className={`message-run message-run-${entry.run}`}>
          Run {entry.run}
          {runNote ? ` · ${runNote}` : ''}
        </span>
      )}
      {entry.unansweredToolCall && (
        <p className="message-flag">
          Tool call without a tool answer: a model provider rejects this history.
        </p>
      )}
    </>
  );
}

interface MessageItemProps {
  entry: MessageEntry;
  /** Words added to a run 1 message's tag, e.g. "interrupted". */
  run1Note?: string;
}

/** One message as a chat bubble, with the run that wrote it; its kind is the first words read. */
export function MessageItem({ entry, run1Note }: MessageItemProps) {
  const marks = <EntryMarks entry={entry} runNote={entry.run === 1 ? run1Note : undefined} />;
  return <MessageBubble message={entry.message} marks={marks} />;
}

function MessageBubble({ message, marks }: { message: ThreadMessage; marks: ReactNode }) {
  const text = contentToText(message.content);
  switch (message.type) {
    case 'human':
      return (
        <li className="message message-human">
          <span className="message-kind">Human</span>
          <Text text={text} />
          {marks}
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
          {marks}
        </li>
      );
    case 'tool':
      return (
        <li className="message message-tool">
          <span className="message-kind">
            Tool result{message.name ? ` · ${message.name}` : ''}
          </span>
          <Text text={text} />
          {marks}
        </li>
      );
    case 'system':
      return (
        <li className="message message-system">
          <span className="message-kind">System</span>
          <Text text={text} />
          {marks}
        </li>
      );
    case 'other':
      return (
        <li className="message message-system">
          <span className="message-kind">{message.originalType}</span>
          <Text text={text} />
          {marks}
        </li>
      );
  }
}
