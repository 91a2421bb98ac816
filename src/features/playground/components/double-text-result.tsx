import { useEffect, useRef } from 'react';
import type { DoubleTextOutcome } from '@/features/playground/model/flow-types';
import { describeMessages } from '@/features/playground/model/message-origins';
import { formatDuration } from '@/features/playground/model/relative-time';
import { FATE_EXPLANATIONS } from '@/features/playground/model/strategy-descriptions';
import { FlowTimeline } from './flow-timeline';
import { RawJsonToggle } from './raw-json-toggle';
import { RunFateBadge } from './run-fate-badge';
import { scrollIntoViewGently } from './scroll-into-view';
import { ThreadMessages } from './thread-messages';

/** What one double-text left behind: both runs' fates, the timeline, kept and erased messages. */
export function DoubleTextResult({ outcome }: { outcome: DoubleTextOutcome }) {
  const { fate, run2Fate } = outcome;
  const { kept, erased } = describeMessages(outcome.messages, outcome.streamed);
  const fatesRef = useRef<HTMLElement>(null);
  // The answer to "what happened to run 1" is brought into view the moment it is known; the
  // page's status line announces it to screen readers.
  useEffect(() => {
    if (fatesRef.current) scrollIntoViewGently(fatesRef.current, 'start');
  }, [outcome]);
  return (
    <div className="pg-result">
      <section
        ref={fatesRef}
        className={`pg-fate pg-fate-${fate.tone}`}
        aria-labelledby="pg-fate-heading"
      >
        <div className="pg-fate-head">
          <h3 id="pg-fate-heading">Fates</h3>
        </div>
        <p className="pg-fate-words">
          <RunFateBadge fate={fate} /> Run 1 <code>{outcome.run1Id}</code>: {fate.words}
        </p>
        <p className="pg-fate-words pg-fate-run2">
          <RunFateBadge fate={run2Fate} /> Run 2
          {outcome.run2Id && (
            <>
              {' '}
              <code>{outcome.run2Id}</code>
            </>
          )}
          : {run2Fate.words}
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
        <div className="pg-message-columns">
          <ThreadMessages kept={kept} erased={erased} fate={fate} idPrefix="pg-single" />
        </div>
      </div>
      <RawJsonToggle label="raw thread state" value={outcome.rawState} />
    </div>
  );
}
