import type { ReactNode } from 'react';
import { NavLink } from '@/components/ui/nav-link';
import { useRoleMay } from '@/lib/console-session';
import { paths } from '@/lib/paths';

/**
 * The sections of Billing and Usage, each a page of its own under one tab bar; the admin pages
 * are offered only to a role that may use them (the proxy refuses the others anyway).
 */
const SECTIONS = [
  { to: paths.granularUsage, label: 'Granular Usage', adminOnly: false },
  { to: paths.invoices, label: 'Invoices', adminOnly: false },
  { to: paths.apiKeys, label: 'API keys', adminOnly: true },
  { to: paths.auditLog, label: 'Audit log', adminOnly: true },
] as const;

export function BillingAndUsageLayout({ children }: { children: ReactNode }) {
  const mayManage = useRoleMay('settings:change');
  const sections = SECTIONS.filter((section) => mayManage || !section.adminOnly);
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
        {sections.map((section) => (
          <NavLink key={section.to} className="tab" to={section.to}>
            {section.label}
          </NavLink>
        ))}
      </nav>
      {children}
    </div>
  );
}
