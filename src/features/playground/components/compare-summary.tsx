import type { StrategyResult } from '@/features/playground/api/compare-strategies';
import { describeMessages } from '@/features/playground/model/message-origins';
import { formatDuration } from '@/features/playground/model/relative-time';
import { RunFateBadge } from './run-fate-badge';

/**
 * One line per strategy, above the four columns: what became of each run, what the thread kept
 * and erased, how long it took. The columns below hold the messages and timelines.
 */
export function CompareSummary({ results }: { results: StrategyResult[] }) {
  return (
    // Focusable, so a keyboard can scroll it sideways on a phone (axe: scrollable-region-focusable).
    <div
      className="compare-summary-scroll"
      role="region"
      aria-label="Outcome of each strategy"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a region that scrolls
      tabIndex={0}
    >
      <table className="compare-summary">
        <caption className="visually-hidden">Outcome of each strategy</caption>
        <thead>
          <tr>
            <th scope="col">Strategy</th>
            <th scope="col">Run 1</th>
            <th scope="col">Run 2</th>
            <th scope="col">Thread</th>
            <th scope="col" className="num">
              Time
            </th>
          </tr>
        </thead>
        <tbody>
          {results.map((result) => (
            <tr key={result.strategy}>
              <th scope="row">{result.strategy}</th>
              {result.status === 'done' ? (
                <SummaryCells result={result} />
              ) : (
                <td colSpan={4}>Failed: see its column below</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SummaryCells({ result }: { result: Extract<StrategyResult, { status: 'done' }> }) {
  const { outcome } = result;
  const { kept, erased } = describeMessages(outcome.messages, outcome.streamed);
  return (
    <>
      <td>
        <RunFateBadge fate={outcome.fate} /> {outcome.fate.words}
      </td>
      <td>
        <RunFateBadge fate={outcome.run2Fate} />
      </td>
      <td>
        {kept.length} {kept.length === 1 ? 'message' : 'messages'}
        {erased.length > 0 ? `, ${erased.length} erased` : ''}
      </td>
      <td className="num">{formatDuration(outcome.totalMs)}</td>
    </>
  );
}
