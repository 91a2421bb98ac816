import { ConfigError, loadConfig, loadDotEnv } from './config';
import { BackendUnreachableError, checkBackends } from './startup/check-backends';
import { fleetBillingRefusal } from './startup/fleet-billing';

/**
 * What `npm start` runs before it builds the SPA: a bad variable or an unreachable backend fails
 * in a second, not after the build. The server checks the same again when it starts.
 */
async function checkConfig() {
  loadDotEnv();
  const config = loadConfig();
  await checkBackends(config);
  const billingRefusal = fleetBillingRefusal(config);
  if (billingRefusal) throw new ConfigError(billingRefusal);
}

checkConfig().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof BackendUnreachableError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
});
