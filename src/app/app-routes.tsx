import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
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

// The admin pages are chunks of their own, loaded when opened.
const ApiKeysRoute = lazy(() =>
  import('./routes/api-keys').then((module) => ({ default: module.ApiKeysRoute })),
);
const AuditLogRoute = lazy(() =>
  import('./routes/audit-log').then((module) => ({ default: module.AuditLogRoute })),
);

/**
 * The app's routes in React Router's declarative mode: the data router (loaders, actions) would
 * add ~14 KB of brotli to the usage tab's first load, which has a 200 KB budget and uses none of
 * it (data comes from TanStack Query, state from the URL via src/lib/url-state.ts).
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    // Keyed by path: leaving a page that failed clears the error.
    <RouteErrorBoundary key={pathname}>
      <Routes>
        <Route path="/" element={<RootLayout />}>
          <Route index element={<ToGranularUsage />} />
          <Route path="settings" element={<ToGranularUsage />} />
          <Route path={paths.billingAndUsage} element={<BillingAndUsageLayout />}>
            <Route index element={<ToGranularUsage />} />
            <Route path={paths.granularUsage} element={<GranularUsageRoute />} />
            <Route
              path={paths.apiKeys}
              element={
                <Suspense fallback={<p className="muted">Loading the API keys…</p>}>
                  <ApiKeysRoute />
                </Suspense>
              }
            />
            <Route
              path={paths.auditLog}
              element={
                <Suspense fallback={<p className="muted">Loading the audit log…</p>}>
                  <AuditLogRoute />
                </Suspense>
              }
            />
          </Route>
          <Route
            path={paths.rollbackPlayground}
            element={
              <Suspense fallback={<p className="page muted">Loading the playground…</p>}>
                <RollbackPlaygroundRoute />
              </Suspense>
            }
          />
          <Route path="*" element={<NotFoundRoute />} />
        </Route>
      </Routes>
    </RouteErrorBoundary>
  );
}

/** The tab's address for a shorter one, keeping the link's query and hash (a shared view). */
function ToGranularUsage() {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: paths.granularUsage, search, hash }} replace />;
}
