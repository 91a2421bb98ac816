import { useId, useState, type FormEvent } from 'react';
import { useChangeModelPrices, useModelPrices } from '../api/model-price-map';
import { describeUsageError } from './usage-error';

export const MODEL_PRICE_EDITOR_ID = 'model-price-editor';

const perMillion = (perToken: number) =>
  (perToken * 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 4 });

/**
 * A workspace's own model prices and a form to add one (dollars per million tokens), for admins:
 * the server refuses keys without `usage-limits:manage`, and the form says so. A price applies to
 * runs ingested after it is saved; the defaults (list prices) are listed by the API, not here.
 */
export function ModelPriceEditor({
  workspaceIds,
  modelName,
}: {
  workspaceIds: readonly string[];
  /** The model to price, named by a link of the unpriced card; the form starts from it. */
  modelName: string | null;
}) {
  const id = useId();
  const [workspaceId, setWorkspaceId] = useState<string | null>(workspaceIds[0] ?? null);
  const selected =
    workspaceId && workspaceIds.includes(workspaceId) ? workspaceId : (workspaceIds[0] ?? null);
  const prices = useModelPrices(selected);
  const { create, remove } = useChangeModelPrices();
  const own = (prices.data ?? []).filter((entry) => entry.tenant_id !== null);
  const [name, setName] = useState(modelName ?? '');
  const [input, setInput] = useState('');
  const [output, setOutput] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!selected) return;
    const escaped = name.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    create.mutate(
      {
        workspaceId: selected,
        name: name.trim(),
        matchPattern: `^${escaped}$`,
        inputPerMillion: Number(input),
        outputPerMillion: Number(output),
      },
      { onSuccess: () => setName('') },
    );
  };
  const error = create.error ?? remove.error;
  return (
    <section className="panel" id={MODEL_PRICE_EDITOR_ID} aria-labelledby={`${id}-heading`}>
      <div className="panel-heading">
        <h3 id={`${id}-heading`}>Model prices</h3>
        <span className="muted small">Applies to runs ingested after saving</span>
      </div>
      <label htmlFor={`${id}-workspace`}>Workspace</label>{' '}
      <select
        id={`${id}-workspace`}
        value={selected ?? ''}
        onChange={(event) => setWorkspaceId(event.target.value)}
      >
        {workspaceIds.map((workspace) => (
          <option key={workspace} value={workspace}>
            {workspace}
          </option>
        ))}
      </select>
      {own.length > 0 ? (
        <ul className="model-prices">
          {own.map((entry) => (
            <li key={entry.id}>
              {entry.name}: ${perMillion(entry.prompt_cost)} in, $
              {perMillion(entry.completion_cost)} out per 1M tokens{' '}
              <button
                type="button"
                className="button"
                onClick={() => selected && remove.mutate({ workspaceId: selected, id: entry.id })}
              >
                Remove {entry.name}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">
          {prices.isPending
            ? 'Loading prices…'
            : 'No prices of this workspace’s own: list prices apply.'}
        </p>
      )}
      <form className="control-row" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={`${id}-name`}>Model name</label>
          <input
            id={`${id}-name`}
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-input`}>Input $ per 1M tokens</label>
          <input
            id={`${id}-input`}
            required
            type="number"
            min="0"
            step="any"
            value={input}
            onChange={(event) => setInput(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-output`}>Output $ per 1M tokens</label>
          <input
            id={`${id}-output`}
            required
            type="number"
            min="0"
            step="any"
            value={output}
            onChange={(event) => setOutput(event.target.value)}
          />
        </div>
        <button type="submit" className="button" disabled={!selected || create.isPending}>
          Save price
        </button>
      </form>
      {error ? (
        <p className="field-error" role="alert">
          {describeUsageError(error).title}
        </p>
      ) : null}
    </section>
  );
}
