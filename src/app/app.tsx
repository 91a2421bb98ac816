import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app-routes';
import { AppProvider } from './provider';

/**
 * Navigation renders at once, not in a transition: the controls' state is the URL (see
 * src/lib/url-state.ts), and a controlled input whose value changes in a transition loses
 * keystrokes typed before it commits.
 */
export function App() {
  return (
    <AppProvider>
      <BrowserRouter useTransitions={false}>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
