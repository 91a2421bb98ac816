import type { ReactNode } from 'react';
import { NavLink } from '@/components/ui/nav-link';
import { useConsoleConfig } from '@/lib/console-config';
import { paths } from '@/lib/paths';
import { isDemoData } from '@/lib/usage-source';

export function RootLayout({ children }: { children: ReactNode }) {
  const config = useConsoleConfig();
  // The organisation's name is not in any API the console reads: name only the demo's.
  const demo = config.data ? isDemoData(config.data) : false;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="brand">
          <svg aria-hidden="true" viewBox="0 0 32 32" width="28" height="28">
            <rect width="32" height="32" rx="7" fill="currentColor" />
            <path
              d="M8 22V14M14 22V9M20 22v-6M26 22V12"
              stroke="#fff"
              strokeWidth="3"
              strokeLinecap="round"
            />
          </svg>
          <div>
            <div className="brand-name">Usage Console</div>
            {demo ? <div className="brand-org">Demo organization</div> : null}
          </div>
        </div>
        <nav aria-label="Main">
          <p className="nav-section" id="nav-settings">
            Settings
          </p>
          <ul aria-labelledby="nav-settings">
            <li>
              <NavLink className="nav-link" to={paths.billingAndUsage}>
                Billing and Usage
              </NavLink>
            </li>
          </ul>
          <p className="nav-section" id="nav-tools">
            Developer tools
          </p>
          <ul aria-labelledby="nav-tools">
            <li>
              <NavLink className="nav-link" to={paths.rollbackPlayground}>
                Rollback playground
              </NavLink>
            </li>
          </ul>
        </nav>
      </aside>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
