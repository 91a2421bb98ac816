import { render } from '@testing-library/react';
import { AppProvider } from '@/app/provider';
import { AppRoutes } from '@/app/app-routes';

/**
 * Renders the whole app (providers and routes) at `url`, as a user arriving by that link. The
 * app runs on the page's own URL, as in the browser: the URL state reads `window.location`
 * when it writes, so a memory router would disagree with it.
 */
export function renderApp(url: string) {
  window.history.replaceState(null, '', url);
  const view = render(
    <AppProvider>
      <AppRoutes />
    </AppProvider>,
  );
  /** Where the app is now (after redirects and navigation). */
  const location = () => window.location;
  return { ...view, location };
}
