/** What the console server answers the SPA, as test fixtures (one place for their shapes). */

/** `GET /_console/config` of the embedded demo (cloud mode). */
export const EMBEDDED_CONSOLE_CONFIG = {
  usage: { source: 'embedded', upstream: null, deploymentMode: 'cloud', backend: 'duckdb' },
  deployment: { source: 'embedded', upstream: null },
} as const;

/** A workspace of `GET /_console/usage/workspaces` the key can write to. */
export const workspaceFixture = (id: string, name: string = id) => ({
  id,
  display_name: name,
  is_personal: false,
  is_deleted: false,
  read_only: false,
  role_name: 'WORKSPACE_ADMIN',
  permissions: [],
  created_at: null,
});
