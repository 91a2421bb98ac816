import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { paths } from '@/lib/paths';
import { BillingAndUsageLayout } from './routes/billing-and-usage-layout';
import { GranularUsageRoute } from './routes/granular-usage';
import { NotFoundRoute } from './routes/not-found';
import { RootLayout } from './routes/root-layout';
import { RouteErrorBoundary } from './routes/route-error-boundary';

// The playground is a separate chunk: the usage tab's first load does not pay for it.
const RollbackPlaygroundRoute = lazy(() =>
  import('./routes/rollback-playground').then((module) => ({
    default: module.RollbackPlaygroundRoute,
  })),
);

// Invoices: a chunk of its own, loaded when the section is opened.
const InvoicesRoute = lazy(() =>
  import('./routes/invoices').then((module) => ({ default: module.InvoicesRoute })),
);
// The admin pages are chunks of their own, loaded when opened.
const ApiKeysRoute = lazy(() =>
  import('./routes/api-keys').then((module) => ({ default: module.ApiKeysRoute })),
);
const AuditLogRoute = lazy(() =>
  import('./routes/audit-log').then((module) => ({ default: module.AuditLogRoute })),
);

/**
 * The app's routes on wouter (~2 KB of brotli, where React Router took ~12 of the usage tab's
 * first load): the app needs paths, links and redirects only. Data comes from TanStack Query,
 * state from the URL via src/lib/url-state.ts.
 */
export function AppRoutes() {
  const [pathname] = useLocation();
  return (
    // Keyed by path: leaving a page that failed clears the error.
    <RouteErrorBoundary key={pathname}>
      <RootLayout>
        <Switch>
          <Route path="/">
            <ToGranularUsage />
          </Route>
          <Route path="/settings">
            <ToGranularUsage />
          </Route>
          <Route path={paths.billingAndUsage}>
            <ToGranularUsage />
          </Route>
          <Route path={paths.granularUsage}>
            <BillingAndUsageLayout>
              <GranularUsageRoute />
            </BillingAndUsageLayout>
          </Route>
          <Route path={paths.invoices}>
            <BillingAndUsageLayout>
              <Suspense fallback={<p className="muted">Loading invoices…</p>}>
                <InvoicesRoute />
              </Suspense>
            </BillingAndUsageLayout>
          </Route>
          <Route path={paths.apiKeys}>
            <BillingAndUsageLayout>
              <Suspense fallback={<p className="muted">Loading the API keys…</p>}>
                <ApiKeysRoute />
              </Suspense>
            </BillingAndUsageLayout>
          </Route>
          <Route path={paths.auditLog}>
            <BillingAndUsageLayout>
              <Suspense fallback={<p className="muted">Loading the audit log…</p>}>
                <AuditLogRoute />
              </Suspense>
            </BillingAndUsageLayout>
          </Route>
          <Route path={paths.rollbackPlayground}>
            <Suspense fallback={<p className="page muted">Loading the playground…</p>}>
              <RollbackPlaygroundRoute />
            </Suspense>
          </Route>
          <Route>
            <NotFoundRoute />
          </Route>
        </Switch>
      </RootLayout>
    </RouteErrorBoundary>
  );
}

/** The tab's address for a shorter one, keeping the link's query and hash (a shared view). */
function ToGranularUsage() {
  const search = useSearch();
  const query = search === '' ? '' : `?${search}`;
  return <Redirect to={`${paths.granularUsage}${query}${window.location.hash}`} replace />;
}
