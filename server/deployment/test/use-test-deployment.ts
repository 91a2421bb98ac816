import { afterAll, beforeAll } from 'vitest';
import { removeDataDir, startTestDeployment, type TestDeployment } from './test-deployment';

/**
 * One embedded deployment for the whole test file, on a fresh data dir: started before the first
 * test, stopped and removed after the last. The object is filled in by `beforeAll`.
 */
export function useTestDeployment(options: {
  stepMs: number;
  env?: Record<string, string>;
}): TestDeployment {
  const deployment = {} as TestDeployment;
  beforeAll(async () => {
    Object.assign(deployment, await startTestDeployment(options));
  });
  afterAll(async () => {
    await deployment.stop?.();
    if (deployment.dataDir) await removeDataDir(deployment.dataDir);
  });
  return deployment;
}
