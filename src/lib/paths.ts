/** Every URL of the app, so links and routes cannot drift apart. */
export const paths = {
  billingAndUsage: '/settings/billing-and-usage',
  granularUsage: '/settings/billing-and-usage/granular-usage',
  invoices: '/settings/billing-and-usage/invoices',
  rollbackPlayground: '/tools/rollback-playground',
} as const;
