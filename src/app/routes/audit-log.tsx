import { AuditLogPage } from '@/features/admin/components/audit-log-page';

export function AuditLogRoute() {
  return <AuditLogPage />;
}
