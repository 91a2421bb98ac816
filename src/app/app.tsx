import { AppRoutes } from './app-routes';
import { AppProvider } from './provider';

export function App() {
  return (
    <AppProvider>
      <AppRoutes />
    </AppProvider>
  );
}
