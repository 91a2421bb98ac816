import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src', import.meta.url));
const server = fileURLToPath(new URL('./server', import.meta.url));
const contracts = fileURLToPath(new URL('./contracts', import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@server': server, '@contracts': contracts, '@': src } },
  build: {
    outDir: 'dist',
    // dist/.vite/manifest.json: the chunk graph tools/bundle/check-first-load.ts measures.
    manifest: true,
    // The usage tab must stay under its initial-JS budget; the build prints gzip sizes.
    reportCompressedSize: true,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // Everything the page imports statically (React, the router, TanStack Query, zod,
              // src/lib, the app shell and the usage tab) in the entry's one script. Left alone,
              // the bundler gives what the entry shares with a lazy chunk (the wire schemas, the
              // bucket grids, query-core, zod's core) and its runtime scripts of their own: each
              // costs ~0.9 KB of response headers and compresses worse on the usage tab's first
              // load. Lazy chunks keep what only they use.
              name: 'index',
              tags: ['$initial'],
            },
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup-tests.ts'],
          // Whole-tab tests render the app, lazy chunks and all: on the shared 2-core machine at a
          // load average of 15+ they took 5-6 s (Vitest's default limit is 5 s).
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'server/**/*.test.ts',
            'contracts/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tools/**/*.test.ts',
            'e2e/testing/**/*.test.ts',
          ],
          // Server tests start real databases and HTTP listeners: one file at a time per core.
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      // The deployment suite again on Postgres (test-deployment.ts reads the backend variable),
      // when a test server is there; postgres-backend.test.ts says so visibly when it is not.
      ...(process.env.TEST_DATABASE_URI
        ? [
            {
              extends: true as const,
              test: {
                name: 'deployment-postgres',
                environment: 'node',
                include: ['server/deployment/test/**/*.test.ts'],
                // The replica tests run on Postgres in every project: once is enough.
                exclude: [
                  ...configDefaults.exclude,
                  'server/deployment/test/*-replicas.test.ts',
                  'server/deployment/test/killed-replica-stream.test.ts',
                ],
                env: { DEPLOYMENT_TEST_BACKEND: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
    ],
  },
});
