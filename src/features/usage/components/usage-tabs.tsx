import { useRef, type KeyboardEvent } from 'react';
import './usage-tabs.css';
import { USAGE_TABS, type UsageTab } from '../model/resolve-usage-view';

export const USAGE_TAB_LABELS: Record<UsageTab, string> = {
  traces: 'LangSmith Traces',
  deployments: 'LangSmith Deployments',
  llm: 'LLM tokens & cost',
};

export const tabId = (tab: UsageTab) => `usage-tab-${tab}`;
export const tabPanelId = (tab: UsageTab) => `usage-panel-${tab}`;

/**
 * The billing domains as tabs (WAI-ARIA tabs: arrow keys move between them). Switching
 * changes only `?tab=`: range, aggregation, grouping and workspaces stay as they are.
 */
export function UsageTabs({ tab, onSelect }: { tab: UsageTab; onSelect: (tab: UsageTab) => void }) {
  const buttons = useRef<Partial<Record<UsageTab, HTMLButtonElement | null>>>({});
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const step = event.key === 'ArrowRight' ? 1 : -1;
    const next =
      USAGE_TABS[(USAGE_TABS.indexOf(tab) + step + USAGE_TABS.length) % USAGE_TABS.length];
    if (!next) return;
    onSelect(next);
    buttons.current[next]?.focus();
  };
  return (
    <div className="usage-tabs" role="tablist" aria-label="Billing domain">
      {USAGE_TABS.map((item) => (
        <button
          key={item}
          ref={(element) => {
            buttons.current[item] = element;
          }}
          type="button"
          role="tab"
          id={tabId(item)}
          aria-selected={item === tab}
          aria-controls={tabPanelId(item)}
          tabIndex={item === tab ? 0 : -1}
          className="usage-tab"
          onClick={() => onSelect(item)}
          onKeyDown={onKeyDown}
        >
          {USAGE_TAB_LABELS[item]}
        </button>
      ))}
    </div>
  );
}
