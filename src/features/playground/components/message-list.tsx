import type { MessageEntry } from '@/features/playground/model/message-origins';
import { MessageItem } from './message-item';

interface MessageListProps {
  /** The list's accessible name, e.g. "Thread messages". */
  label: string;
  entries: MessageEntry[];
  empty: string;
  run1Note?: string;
  className?: string;
}

/** Messages in order as a conversation, each tagged with the run that wrote it. */
export function MessageList({ label, entries, empty, run1Note, className = '' }: MessageListProps) {
  if (entries.length === 0) return <p className="pg-muted">{empty}</p>;
  return (
    <ol className={`messages ${className}`} aria-label={label}>
      {entries.map((entry, index) => (
        <MessageItem key={`${entry.key}-${index}`} entry={entry} run1Note={run1Note} />
      ))}
    </ol>
  );
}
