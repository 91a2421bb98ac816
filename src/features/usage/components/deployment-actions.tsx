import { deploymentSearchParams, useDeploymentUsage } from '../api/get-deployment-usage';
import type { ResolvedUsageView } from '../model/resolve-usage-view';
import { CopyCurlButton } from './copy-curl-button';
import { DeploymentExportButton } from './deployment-export-button';

/**
 * The Deployments tab's curl and CSV actions. Their data is the view's query (the same key as
 * the charts'), so the file matches the screen without a second request.
 */
export function DeploymentActions({ view }: { view: ResolvedUsageView | null }) {
  const deployments = useDeploymentUsage(view);
  return (
    <>
      <CopyCurlButton view={view} paramsOf={deploymentSearchParams} />
      <DeploymentExportButton
        view={view}
        matrices={deployments.isPlaceholderData ? undefined : deployments.data}
      />
    </>
  );
}
