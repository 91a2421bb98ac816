import { ApiKeysPage } from '@/features/admin/components/api-keys-page';

export function ApiKeysRoute() {
  return <ApiKeysPage />;
}
