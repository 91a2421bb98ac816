import type { StrategyResult } from '@/features/playground/api/compare-strategies';
import type { Connection } from '@/features/playground/model/connection';
import { describeError, type ErrorDescription } from '@/features/playground/model/describe-error';
import { formatDuration } from '@/features/playground/model/relative-time';
import { RunFateBadge } from './run-fate-badge';

function FailedStrategy({ description }: { description: ErrorDescription }) {
  return (
    <div className="pg-note pg-note-danger">
      <p className="callout-title">{description.title}</p>
      <p>{description.message}</p>
    </div>
  );
}

interface CompareResultsProps {
  results: StrategyResult[];
  connection: Connection;
  assistantId: string;
}

/** The four strategies side by side: how many messages survive and what became of run 1. */
export function CompareResults({ results, connection, assistantId }: CompareResultsProps) {
  return (
    <ul className="compare-grid" aria-label="Strategy outcomes">
      {results.map((result) => (
        <li key={result.strategy} className="compare-card" aria-label={result.strategy}>
          <h3 className="compare-strategy">{result.strategy}</h3>
          {result.status === 'done' ? (
            <dl className="compare-facts">
              <div>
                <dt>Run 1</dt>
                <dd>
                  <RunFateBadge fate={result.outcome.fate} />
                  <span className="compare-words">{result.outcome.fate.words}</span>
                </dd>
              </div>
              <div>
                <dt>Messages</dt>
                <dd>{result.outcome.messages.length}</dd>
              </div>
              <div>
                <dt>Duration</dt>
                <dd>{formatDuration(result.outcome.totalMs)}</dd>
              </div>
            </dl>
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
  );
}
