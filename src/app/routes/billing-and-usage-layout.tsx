import { NavLink, Outlet } from 'react-router';
import { paths } from '@/lib/paths';

export function BillingAndUsageLayout() {
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
        <NavLink className="tab" to={paths.granularUsage}>
          Granular Usage
        </NavLink>
      </nav>
      <Outlet />
    </div>
  );
}
