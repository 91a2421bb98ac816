import type { ThreadMessage } from '@/features/playground/model/thread-messages';
import { MessageItem } from './message-item';

/** The messages that survived in the thread, in order, as a conversation. */
export function ThreadMessages({ messages }: { messages: ThreadMessage[] }) {
  return (
    <section className="pg-card" aria-labelledby="pg-messages-heading">
      <h3 id="pg-messages-heading">
        Surviving thread messages <span className="pg-count">({messages.length})</span>
      </h3>
      {messages.length === 0 ? (
        <p className="pg-muted">The thread holds no messages.</p>
      ) : (
        <ol className="messages" aria-label="Thread messages">
          {messages.map((message, index) => (
            <MessageItem key={message.id ?? index} message={message} />
          ))}
        </ol>
      )}
    </section>
  );
}
