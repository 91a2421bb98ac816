import type { MessageEntry } from '@/features/playground/model/message-origins';
import type { RunFate } from '@/features/playground/model/run-fate';
import { MessageList } from './message-list';

/** Why run 1's streamed messages are gone, in the words a demo audience reads. */
export function erasedReason(fate: RunFate): string {
  return fate.kind === 'deleted'
    ? 'rolled back — the deployment deleted run 1'
    : 'no longer in the thread';
}

interface ThreadMessagesProps {
  kept: MessageEntry[];
  erased: MessageEntry[];
  fate: RunFate;
  /** Heading level: 3 in the single result, 4 inside a compared strategy. */
  level?: 3 | 4;
  idPrefix: string;
}

/** What the thread holds at the end, and apart from it what run 1 streamed that was erased. */
export function ThreadMessages({ kept, erased, fate, level = 3, idPrefix }: ThreadMessagesProps) {
  const Heading = `h${level}` as const;
  const run1Note = fate.kind === 'interrupted' ? 'interrupted, kept' : undefined;
  return (
    <>
      <section className="pg-card" aria-labelledby={`${idPrefix}-kept`}>
        <Heading id={`${idPrefix}-kept`}>
          Thread messages <span className="pg-count">({kept.length})</span>
        </Heading>
        <MessageList
          label="Thread messages"
          entries={kept}
          empty="The thread holds no messages."
          run1Note={run1Note}
        />
      </section>
      {erased.length > 0 && (
        <section className="pg-card pg-erased" aria-labelledby={`${idPrefix}-erased`}>
          <Heading id={`${idPrefix}-erased`}>
            Erased messages <span className="pg-count">({erased.length})</span>
          </Heading>
          <p className="pg-note">Streamed by run 1, then {erasedReason(fate)}.</p>
          <MessageList
            label="Erased messages"
            entries={erased}
            empty=""
            run1Note="erased"
            className="messages-erased"
          />
        </section>
      )}
    </>
  );
}
