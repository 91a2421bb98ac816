import { lazy, Suspense, type ReactNode } from 'react';
import type { ConsoleSession } from '@contracts/console-session';
import { NavLink } from '@/components/ui/nav-link';
import { useConsoleConfig } from '@/lib/console-config';
import { useConsoleSession } from '@/lib/console-session';
import { paths } from '@/lib/paths';
import { isDemoData } from '@/lib/usage-source';

// Sign-in has its own chunks: a console that signs no one in (the default) never loads them, and
// the usage tab's first load does not grow.
const SignInPage = lazy(() =>
  import('@/features/sign-in/components/sign-in-page').then((module) => ({
    default: module.SignInPage,
  })),
);
const SignedInUser = lazy(() =>
  import('@/features/sign-in/components/signed-in-user').then((module) => ({
    default: module.SignedInUser,
  })),
);

export function RootLayout({ children }: { children: ReactNode }) {
  const session = useConsoleSession();
  // The shell does not wait for the answer: a console that signs no one in (the default) loads
  // as fast as before, and one that does answers every panel 401 until the answer swaps the
  // page for the sign-in form.
  if (session.data && session.data.mode !== 'none' && !session.data.user) {
    return (
      <Suspense fallback={null}>
        <main id="main" tabIndex={-1}>
          <SignInPage mode={session.data.mode} />
        </main>
      </Suspense>
    );
  }
  const user = session.data?.user ?? null;
  return <Shell user={user}>{children}</Shell>;
}

function Shell({ user, children }: { user: ConsoleSession['user']; children: ReactNode }) {
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
        {user ? (
          <Suspense fallback={null}>
            <SignedInUser user={user} />
          </Suspense>
        ) : null}
      </aside>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
