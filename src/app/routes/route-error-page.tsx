import { paths } from '@/lib/paths';

/** Shown instead of a blank page when a page throws while rendering (see RouteErrorBoundary). */
export function RouteErrorPage({ error }: { error: Error }) {
  return (
    <main className="page error-page">
      <section className="panel" role="alert" aria-labelledby="route-error-heading">
        <h1 id="route-error-heading">Something went wrong</h1>
        <p>This page failed to display. Your data is safe; reloading usually helps.</p>
        <pre className="error-detail">{error.message || 'Unknown error'}</pre>
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
