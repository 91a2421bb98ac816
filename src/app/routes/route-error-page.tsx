import { isRouteErrorResponse, useRouteError } from 'react-router';
import { paths } from '@/lib/paths';

/** Shown instead of a blank page when a route throws while rendering or loading. */
export function RouteErrorPage() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <main className="page error-page">
      <section className="panel" role="alert" aria-labelledby="route-error-heading">
        <h1 id="route-error-heading">Something went wrong</h1>
        <p>This page failed to display. Your data is safe; reloading usually helps.</p>
        <pre className="error-detail">{message}</pre>
        <div className="row">
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Reload
          </button>
          <a className="button button-secondary" href={paths.granularUsage}>
            Back to Billing and Usage
          </a>
        </div>
      </section>
    </main>
  );
}
