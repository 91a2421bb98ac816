import { Link, useLocation } from 'wouter';
import { paths } from '@/lib/paths';

export function NotFoundRoute() {
  const [pathname] = useLocation();
  return (
    <div className="page">
      <section className="panel empty-state" aria-labelledby="not-found-heading">
        <h1 id="not-found-heading">Page not found</h1>
        <p>
          Nothing lives at <code>{pathname}</code>.
        </p>
        <Link className="button" href={paths.granularUsage}>
          Go to Billing and Usage
        </Link>
      </section>
    </div>
  );
}
