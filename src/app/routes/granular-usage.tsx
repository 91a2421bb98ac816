import { GranularUsageTab } from '@/features/usage/components/granular-usage-tab';

export function GranularUsageRoute() {
  return <GranularUsageTab />;
}
