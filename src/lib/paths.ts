/** Every URL of the app, so links and routes cannot drift apart. */
export const paths = {
  billingAndUsage: '/settings/billing-and-usage',
  granularUsage: '/settings/billing-and-usage/granular-usage',
  invoices: '/settings/billing-and-usage/invoices',
  apiKeys: '/settings/billing-and-usage/api-keys',
  auditLog: '/settings/billing-and-usage/audit-log',
  rollbackPlayground: '/tools/rollback-playground',
} as const;
