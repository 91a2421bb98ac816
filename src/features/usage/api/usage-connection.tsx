import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useSignsIn } from '@/lib/console-session';

/**
 * Where the usage tab reads from. `baseUrl: null` is the console's own proxy (embedded demo
 * data or the LangSmith configured on the server, with the server's key); a base URL is called
 * directly from the browser. `apiKey: null` means "the server's key".
 */
export interface UsageConnection {
  baseUrl: string | null;
  apiKey: string | null;
}

const STORAGE_KEY = 'usage-console.usage-connection';
const DEFAULT_CONNECTION: UsageConnection = { baseUrl: null, apiKey: null };

/** Kept for the browser tab only (sessionStorage): a typed key does not outlive the session. */
function readStoredConnection(): UsageConnection {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as unknown;
    if (parsed && typeof parsed === 'object') {
      const { baseUrl, apiKey } = parsed as Record<string, unknown>;
      return {
        baseUrl: typeof baseUrl === 'string' && baseUrl ? baseUrl : null,
        apiKey: typeof apiKey === 'string' && apiKey ? apiKey : null,
      };
    }
  } catch {
    // Unreadable storage (private mode, bad JSON): fall back to the default.
  }
  return DEFAULT_CONNECTION;
}

interface ConnectionContextValue {
  connection: UsageConnection;
  setConnection: (next: UsageConnection) => void;
}

const ConnectionContext = createContext<ConnectionContextValue | null>(null);

export function UsageConnectionProvider({ children }: { children: ReactNode }) {
  // Signed in, the console acts with the user's key held by the server: no key is typed here,
  // and none is kept in (or read from) the tab's storage, where any script on the page reads it.
  const signsIn = useSignsIn();
  const [connection, setState] = useState(() =>
    signsIn ? DEFAULT_CONNECTION : readStoredConnection(),
  );
  const setConnection = useCallback(
    (next: UsageConnection) => {
      if (signsIn) return;
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      setState(next);
    },
    [signsIn],
  );
  const value = useMemo(() => ({ connection, setConnection }), [connection, setConnection]);
  return <ConnectionContext.Provider value={value}>{children}</ConnectionContext.Provider>;
}

export function useUsageConnection(): ConnectionContextValue {
  const value = useContext(ConnectionContext);
  if (!value) throw new Error('useUsageConnection needs a UsageConnectionProvider above it.');
  return value;
}

/** What identifies a connection in query keys, without holding the whole key. */
export function connectionId(connection: UsageConnection): string {
  const key = connection.apiKey ? `key…${connection.apiKey.slice(-6)}` : 'server-key';
  return `${connection.baseUrl ?? 'console'}|${key}`;
}
