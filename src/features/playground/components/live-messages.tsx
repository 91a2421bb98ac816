import type { StreamedMessage } from '@/features/playground/model/streamed-messages';
import { MessageList } from './message-list';

/** The messages as they stream in, each tagged with its run, while the flow is still going. */
export function LiveMessages({ streamed }: { streamed: StreamedMessage[] }) {
  const entries = streamed.map((item) => ({
    key: item.key,
    message: item.message,
    run: item.run,
    unansweredToolCall: false,
  }));
  return (
    <section className="pg-card" aria-labelledby="pg-live-heading">
      <h3 id="pg-live-heading">
        Streamed messages <span className="pg-count">({entries.length})</span>
      </h3>
      <MessageList label="Streamed messages" entries={entries} empty="Nothing streamed yet." />
    </section>
  );
}
