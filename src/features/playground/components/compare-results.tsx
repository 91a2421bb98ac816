import type { StrategyResult } from '@/features/playground/api/compare-strategies';
import type { Connection } from '@/features/playground/model/connection';
import { describeError, type ErrorDescription } from '@/features/playground/model/describe-error';
import type { DoubleTextOutcome } from '@/features/playground/model/flow-types';
import { describeMessages } from '@/features/playground/model/message-origins';
import { formatDuration } from '@/features/playground/model/relative-time';
import { CompareSummary } from './compare-summary';
import { FlowTimeline } from './flow-timeline';
import { RunFateBadge } from './run-fate-badge';
import { ThreadMessages } from './thread-messages';

function FailedStrategy({ description }: { description: ErrorDescription }) {
  return (
    <div className="pg-note pg-note-danger">
      <p className="callout-title">{description.title}</p>
      <p>{description.message}</p>
    </div>
  );
}

/** One strategy's column: both fates, its thread (and what it erased), then its timeline. */
function StrategyOutcome({ outcome }: { outcome: DoubleTextOutcome }) {
  const { kept, erased } = describeMessages(outcome.messages, outcome.streamed);
  const prefix = `pg-compare-${outcome.strategy}`;
  return (
    <>
      <dl className="compare-facts">
        <div>
          <dt>Run 1</dt>
          <dd>
            <RunFateBadge fate={outcome.fate} />
            <span className="compare-words">{outcome.fate.words}</span>
          </dd>
        </div>
        <div>
          <dt>Run 2</dt>
          <dd>
            <RunFateBadge fate={outcome.run2Fate} />
            <span className="compare-words">{outcome.run2Fate.words}</span>
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(outcome.totalMs)}</dd>
        </div>
      </dl>
      <ThreadMessages kept={kept} erased={erased} fate={outcome.fate} level={4} idPrefix={prefix} />
      <FlowTimeline
        steps={outcome.steps}
        idPrefix={prefix}
        title={`Timeline, ${outcome.strategy}`}
      />
    </>
  );
}

interface CompareResultsProps {
  results: StrategyResult[];
  connection: Connection;
  assistantId: string;
}

/** The four strategies side by side: each one's fates, thread, erased messages and timeline. */
export function CompareResults({ results, connection, assistantId }: CompareResultsProps) {
  return (
    <>
      <CompareSummary results={results} />
      <ul className="compare-grid" aria-label="Strategy outcomes">
        {results.map((result) => (
          <li key={result.strategy} className="compare-card" aria-label={result.strategy}>
            <h3 className="compare-strategy">{result.strategy}</h3>
            {result.status === 'done' ? (
              <StrategyOutcome outcome={result.outcome} />
            ) : (
              <FailedStrategy
                description={describeError(result.error, {
                  connection,
                  assistantId,
                  origin: window.location.origin,
                })}
              />
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
