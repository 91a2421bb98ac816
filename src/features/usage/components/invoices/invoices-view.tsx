import { useId } from 'react';
import { Field } from '@/components/ui/field';
import './invoices.css';
import '@/features/usage/components/usage.css';
import { useLimitStatus } from '@/features/usage/api/get-limit-status';
import { UsageConnectionProvider } from '@/features/usage/api/usage-connection';
import { useInvoice } from '@/features/usage/api/get-invoice';
import { usePlan } from '@/features/usage/api/billing-plan';
import { useInvoiceMonth } from '@/features/usage/hooks/use-invoice-month';
import { formatUsd } from '@/features/usage/model/cost-estimate';
import { formatMonth } from '@/features/usage/model/invoice-month';
import { ExportInvoiceButton } from './export-invoice-button';
import { InvoiceLinesTable } from './invoice-lines-table';
import { InvoiceSplitTable } from './invoice-split-table';
import { PlanEditor } from './plan-editor';

/**
 * Billing and Usage > Invoices: a month's invoice (the current month as a draft, to date and
 * projected to its end), who drives it by workspace and project, its CSV, and the plan editor
 * for admins. Months are UTC calendar months.
 */
export function InvoicesView() {
  return (
    <UsageConnectionProvider>
      <InvoicesSection />
    </UsageConnectionProvider>
  );
}

function InvoicesSection() {
  const id = useId();
  const { month, current, months, setMonth } = useInvoiceMonth();
  const invoice = useInvoice(month);
  const plan = usePlan();
  // Admins are keys that may change limits (usage-limits:manage): the plan is theirs too.
  const admin = useLimitStatus().data?.some((status) => status.can_edit) ?? false;
  const data = invoice.data;
  const label = (each: string) => `${formatMonth(each)}${each === current ? ' (draft)' : ''}`;
  const usage = data?.lines.filter((line) => line.metric !== 'seats') ?? [];
  return (
    <section className="invoices" aria-labelledby="invoices-title">
      <div className="invoices-head">
        <h2 id="invoices-title">Invoices</h2>
        <div className="control-row">
          <Field id={`${id}-month`} label="Month (UTC)">
            <select
              id={`${id}-month`}
              value={month}
              onChange={(event) => setMonth(event.target.value)}
            >
              {months.map((each) => (
                <option key={each} value={each}>
                  {label(each)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {data ? <ExportInvoiceButton invoice={data} /> : null}
      </div>
      <p className="muted">
        Amounts in US dollars, each rounded to the cent; a month is a UTC calendar month. Traces
        count when ingested, upgrades when their feedback arrives.
      </p>
      {invoice.isError ? (
        <p role="alert" className="field-error">
          The invoice could not be loaded: {invoice.error.message}
        </p>
      ) : null}
      {invoice.isPending ? <p role="status">Loading the invoice…</p> : null}
      {data ? (
        <div aria-busy={invoice.isFetching}>
          <div className="stats invoice-stats">
            <div className="stat">
              <span className="stat-label" id="invoice-total-label">
                {data.status === 'draft' ? 'Spend to date' : 'Total'}
              </span>
              <output className="stat-value" aria-labelledby="invoice-total-label">
                {formatUsd(data.total)}
              </output>
            </div>
            {data.projected ? (
              <div className="stat">
                <span className="stat-label" id="invoice-projected-label">
                  Projected to month end
                </span>
                <output className="stat-value" aria-labelledby="invoice-projected-label">
                  {formatUsd(data.projected.total)}
                </output>
                <span className="small muted">at this month’s daily rate so far</span>
              </div>
            ) : null}
          </div>
          <InvoiceLinesTable
            caption={`${formatMonth(data.month)}: ${data.status === 'draft' ? 'draft, to date' : 'final'}`}
            lines={data.lines}
            total={data.total}
          />
          {usage.every((line) => line.quantity === 0) ? (
            <p className="muted">
              No usage in this month: the invoice holds the plan’s seats only.
            </p>
          ) : (
            <>
              <InvoiceSplitTable
                caption="By workspace (usage only; seats are the organization’s)"
                splits={data.by_workspace}
                byProject={false}
              />
              <InvoiceSplitTable caption="By project" splits={data.by_project} byProject />
              <p className="muted small">
                A workspace’s or project’s amount is its share of each usage line, by quantity: base
                traces, upgrades, agent runs and deployment uptime.
              </p>
            </>
          )}
          {data.projected ? (
            <details className="invoice-projection">
              <summary>Projected invoice for {formatMonth(data.month)}</summary>
              <InvoiceLinesTable
                caption={`${formatMonth(data.month)}: projected to month end`}
                lines={data.projected.lines}
                total={data.projected.total}
              />
            </details>
          ) : null}
        </div>
      ) : null}
      {admin && plan.data ? <PlanEditor plan={plan.data} /> : null}
    </section>
  );
}
