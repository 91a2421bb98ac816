import type { ReactNode } from 'react';
import { NavLink } from '@/components/ui/nav-link';
import { paths } from '@/lib/paths';

/** The sections of Billing and Usage, each a page of its own under one tab bar. */
const SECTIONS = [
  { to: paths.granularUsage, label: 'Granular Usage' },
  { to: paths.invoices, label: 'Invoices' },
  { to: paths.apiKeys, label: 'API keys' },
  { to: paths.auditLog, label: 'Audit log' },
] as const;

export function BillingAndUsageLayout({ children }: { children: ReactNode }) {
  return (
    <div className="page">
      <header className="page-header">
        <p className="breadcrumb">Settings</p>
        <h1>Billing and Usage</h1>
        <p className="page-lede">
          Traces billed to your organization, by workspace, project, user or API key. All times are
          UTC.
        </p>
      </header>
      <nav className="tabs" aria-label="Billing and Usage sections">
        {SECTIONS.map((section) => (
          <NavLink key={section.to} className="tab" to={section.to}>
            {section.label}
          </NavLink>
        ))}
      </nav>
      {children}
    </div>
  );
}
