import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '@/lib/paths';
import { BillingAndUsageLayout } from './routes/billing-and-usage-layout';
import { GranularUsageRoute } from './routes/granular-usage';
import { NotFoundRoute } from './routes/not-found';
import { RootLayout } from './routes/root-layout';
import { RouteErrorPage } from './routes/route-error-page';

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteErrorPage,
    children: [
      { index: true, element: <Navigate to={paths.granularUsage} replace /> },
      { path: 'settings', element: <Navigate to={paths.granularUsage} replace /> },
      {
        path: paths.billingAndUsage,
        Component: BillingAndUsageLayout,
        children: [
          { index: true, element: <Navigate to={paths.granularUsage} replace /> },
          { path: paths.granularUsage, Component: GranularUsageRoute },
        ],
      },
      {
        path: paths.rollbackPlayground,
        // The playground is a separate chunk: the usage tab's first load does not pay for it.
        lazy: async () => {
          const { RollbackPlaygroundRoute } = await import('./routes/rollback-playground');
          return { Component: RollbackPlaygroundRoute };
        },
      },
      { path: '*', Component: NotFoundRoute },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
