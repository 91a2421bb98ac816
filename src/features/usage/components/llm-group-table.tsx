import { formatCount } from '@/lib/format';
import { dollarsOf, formatUsdOrUnknown, type LlmMatrices } from '../model/llm-matrices';

/** The groups over the whole range, most tokens first. */
export function LlmGroupTable({ matrices }: { matrices: LlmMatrices }) {
  const total = (name: keyof LlmMatrices, key: string) => matrices[name].totals.get(key) ?? 0;
  const rows = [...matrices.total_tokens.series].sort(
    (a, b) =>
      total('total_tokens', b.key) - total('total_tokens', a.key) || a.label.localeCompare(b.label),
  );
  return (
    <div className="table-scroll">
      <table className="usage-table llm-table">
        <caption className="visually-hidden">LLM usage by group over the range</caption>
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Input tokens</th>
            <th scope="col">Output tokens</th>
            <th scope="col">Cache read</th>
            <th scope="col">Total tokens</th>
            <th scope="col">Cost</th>
            <th scope="col">Unpriced runs</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((series) => (
            <tr key={series.key}>
              <th scope="row">{series.label}</th>
              <td>{formatCount(total('input_tokens', series.key))}</td>
              <td>{formatCount(total('output_tokens', series.key))}</td>
              <td>{formatCount(total('cache_read_tokens', series.key))}</td>
              <td>{formatCount(total('total_tokens', series.key))}</td>
              <td>
                {formatUsdOrUnknown(
                  dollarsOf(total('cost_nanos', series.key), total('priced_records', series.key)),
                )}
              </td>
              <td>{formatCount(total('unpriced_runs', series.key))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
