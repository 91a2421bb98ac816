import { ApiKeysPage } from '@/features/admin/components/api-keys-page';
import { UsageConnectionProvider } from '@/features/usage/api/usage-connection';

export function ApiKeysRoute() {
  return (
    <UsageConnectionProvider>
      <ApiKeysPage />
    </UsageConnectionProvider>
  );
}
