import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router';
import { AppProvider } from '@/app/provider';
import { AppRoutes } from '@/app/app-routes';

/** Renders the whole app (providers and routes) at `url`, as a user arriving by that link. */
export function renderApp(url: string) {
  const seen: { location: Location | null } = { location: null };
  const view = render(
    <AppProvider>
      <MemoryRouter initialEntries={[url]}>
        <LocationProbe
          onLocation={(location) => {
            seen.location = location;
          }}
        />
        <AppRoutes />
      </MemoryRouter>
    </AppProvider>,
  );
  /** Where the app is now (after redirects and navigation). */
  const location = () => {
    if (!seen.location) throw new Error('The router has not rendered yet.');
    return seen.location;
  };
  return { ...view, location };
}

function LocationProbe({ onLocation }: { onLocation: (location: Location) => void }) {
  const location = useLocation();
  useEffect(() => {
    onLocation(location);
  }, [location, onLocation]);
  return null;
}
