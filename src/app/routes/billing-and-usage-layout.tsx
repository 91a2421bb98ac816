import { Link, Outlet, useLocation } from 'react-router';
import { paths } from '@/lib/paths';

/**
 * The sections of Billing and Usage. Their tab bar appears once there are two (Invoices joins
 * Granular Usage): a lone tab offers no choice, and each section names itself under the title.
 */
const SECTIONS = [
  { to: paths.granularUsage, label: 'Granular Usage' },
  { to: paths.apiKeys, label: 'API keys' },
  { to: paths.auditLog, label: 'Audit log' },
] as const;

export function BillingAndUsageLayout() {
  // Link with aria-current rather than NavLink: NavLink's path matching would add to the usage
  // tab's first load, which is on a byte budget.
  const { pathname } = useLocation();
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
      {SECTIONS.length > 1 ? (
        <nav className="tabs" aria-label="Billing and Usage sections">
          {SECTIONS.map((section) => (
            <Link
              key={section.to}
              className={pathname === section.to ? 'tab active' : 'tab'}
              aria-current={pathname === section.to ? 'page' : undefined}
              to={section.to}
            >
              {section.label}
            </Link>
          ))}
        </nav>
      ) : null}
      <Outlet />
    </div>
  );
}
