import type { DoubleTextOutcome } from '@/features/playground/model/flow-types';
import { formatDuration } from '@/features/playground/model/relative-time';
import { FATE_EXPLANATIONS } from '@/features/playground/model/strategy-descriptions';
import { FlowTimeline } from './flow-timeline';
import { RawJsonToggle } from './raw-json-toggle';
import { RunFateBadge } from './run-fate-badge';
import { ThreadMessages } from './thread-messages';

/** What one double-text left behind: run 1's fate, the timeline and the surviving messages. */
export function DoubleTextResult({ outcome }: { outcome: DoubleTextOutcome }) {
  const { fate } = outcome;
  return (
    <div className="pg-result">
      <section className={`pg-fate pg-fate-${fate.tone}`} aria-labelledby="pg-fate-heading">
        <div className="pg-fate-head">
          <h3 id="pg-fate-heading">Run 1&apos;s fate</h3>
          <RunFateBadge fate={fate} />
        </div>
        <p className="pg-fate-words">
          Run 1 <code>{outcome.run1Id}</code>: {fate.words}
        </p>
        <p className="pg-muted">
          Strategy <strong>{outcome.strategy}</strong> · thread <code>{outcome.threadId}</code> ·{' '}
          {formatDuration(outcome.totalMs)} in all
        </p>
        {FATE_EXPLANATIONS[fate.kind] && <p className="pg-note">{FATE_EXPLANATIONS[fate.kind]}</p>}
        {outcome.run2Status !== null && outcome.run2Status !== 'success' && (
          <p className="pg-note pg-note-danger" role="alert">
            Run 2 failed on the deployment: it ended with status {outcome.run2Status}.
          </p>
        )}
      </section>
      <div className="pg-columns">
        <FlowTimeline steps={outcome.steps} />
        <ThreadMessages messages={outcome.messages} />
      </div>
      <RawJsonToggle label="raw thread state" value={outcome.rawState} />
    </div>
  );
}
