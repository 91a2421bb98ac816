import { AuditLogPage } from '@/features/admin/components/audit-log-page';
import { UsageConnectionProvider } from '@/features/usage/api/usage-connection';

export function AuditLogRoute() {
  return (
    <UsageConnectionProvider>
      <AuditLogPage />
    </UsageConnectionProvider>
  );
}
