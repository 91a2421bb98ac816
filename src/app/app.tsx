import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app-routes';
import { AppProvider } from './provider';

export function App() {
  return (
    <AppProvider>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
