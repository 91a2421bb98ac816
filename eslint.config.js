import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Paths of the deployment service's folders (or files), for its layer zones. */
const deployment = (...names) => names.map((name) => `./server/deployment/${name}`);
/** What the deployment's use cases stand on. */
const BELOW_USE_CASES = deployment('runs', 'graph', 'metering', 'store', 'wire');

// The SPA routes with wouter; React Router is not a dependency (its ~12 KB did not fit the usage
// tab's first-load budget).
const ROUTER_IS_WOUTER = {
  name: 'react-router',
  message:
    'Routing is wouter: Link, Route, useLocation from "wouter"; NavLink from @/components/ui/nav-link.',
};

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'test-results', 'playwright-report'] },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'import-x/no-cycle': 'error',
      // No `../../..`: go through the `@/` (src) or `@server/` alias once a path climbs more
      // than one level.
      'no-restricted-imports': ['error', { paths: [ROUTER_IS_WOUTER], patterns: ['../../*'] }],
      // Imports flow shared -> features -> app, and the browser never imports the server.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // contracts/ is what the browser and the servers agree on: both import it, it
            // imports neither.
            {
              target: './contracts',
              from: ['./src', './server'],
              message:
                'contracts/ holds the shared wire formats and maths: it imports neither side.',
            },
            {
              target: './src',
              from: './server',
              message: 'The SPA never imports the server: move what both need to contracts/.',
            },
            // The two services share nothing but server/http and server/db (Postgres transactions
            // and migrations): each could be deployed alone, and the shared parts name neither.
            { target: './server/db', from: ['./server/usage', './server/deployment'] },
            { target: './server/usage', from: './server/deployment' },
            { target: './server/deployment', from: './server/usage' },
            // Usage layers: http -> queries/ (each read written once) -> the store port
            // (store/usage-backend.ts) -> one folder per backend. model/ is the pure model both
            // sides share (plans, matrices, windows, refusal counts): it imports neither. Nothing
            // above store/ names a backend's folder; only store/open-usage-backend.ts picks one,
            // and backends do not import each other.
            {
              target: './server/usage/store',
              from: ['./server/usage/http', './server/usage/queries'],
            },
            { target: './server/usage/queries', from: './server/usage/http' },
            {
              target: './server/usage/model',
              from: ['./server/usage/http', './server/usage/queries', './server/usage/store'],
            },
            {
              target: [
                './server/usage/http',
                './server/usage/queries',
                './server/usage/model',
                './server/usage/ingest',
                './server/usage/seed',
                './server/usage/cli',
                './server/usage/usage-service.ts',
              ],
              from: ['./server/usage/store/duckdb', './server/usage/store/scale-out'],
              message: 'Speak the port (store/usage-backend.ts), not a backend.',
            },
            { target: './server/usage/store/duckdb', from: './server/usage/store/scale-out' },
            // ... except that the scale-out backend seeds with DuckDB's own generator, so the
            // demo holds the same traces on every engine.
            {
              target: './server/usage/store/scale-out',
              from: './server/usage/store/duckdb',
              except: ['./seed/export-seed.ts'],
            },
            // Tooling (benches, conformance probes, the peer runner, the fuzzer) uses the product;
            // the product never needs it to run.
            {
              target: ['./server', './src', './contracts'],
              from: './tools',
              message: 'tools/ is not the product: move what the product needs into server/.',
            },
            // server/lib is below both services (argument parsing for every command).
            { target: './server/lib', from: ['./server/usage', './server/deployment'] },
            // Deployment layers: routes (http/, crons/, protocol/) -> use-cases/ (run creation,
            // assistants, thread views, join results) -> runs/, graph/, metering/ -> store/, wire/.
            // cluster/ holds the Redis/Postgres twins of the runs and protocol ports; only
            // deployment-service.ts wires them in.
            {
              target: [...deployment('use-cases'), ...BELOW_USE_CASES, ...deployment('cluster')],
              from: deployment('http', 'crons', 'deployment-service.ts'),
              message: 'Routes call the use cases below them, never the other way round.',
            },
            {
              target: [...deployment('use-cases'), ...BELOW_USE_CASES],
              from: deployment('protocol'),
            },
            {
              target: deployment('cluster'),
              from: deployment('protocol'),
              except: ['./thread-event-log.ts', './protocol-types.ts'],
              message: 'cluster/ implements the protocol ports, nothing above them.',
            },
            {
              target: [...BELOW_USE_CASES, ...deployment('cluster')],
              from: deployment('use-cases'),
            },
            // auth/ (the door, its modes) sits between the routes and the use cases.
            {
              target: deployment('auth'),
              from: deployment('http', 'crons', 'protocol', 'use-cases', 'deployment-service.ts'),
              message: 'auth/ decides for the routes and use cases; it does not call them.',
            },
            { target: BELOW_USE_CASES, from: deployment('auth') },
            {
              target: deployment('store'),
              from: deployment('runs', 'graph', 'metering', 'wire', 'cluster'),
              message: 'Stored records are declared in store/records.ts, not taken from above.',
            },
            { target: './src/features', from: './src/app' },
            {
              target: ['./src/components', './src/lib', './src/hooks'],
              from: ['./src/features', './src/app'],
            },
            { target: './src/features/usage', from: './src/features/playground' },
            { target: './src/features/playground', from: './src/features/usage' },
          ],
        },
      ],
    },
  },
  // Product code never imports tests or test helpers (server/**/test/, src/**/testing/,
  // *.test.ts): the product runs without them, and tools/ may use them.
  {
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'contracts/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'server/**/test/**', 'src/**/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [ROUTER_IS_WOUTER],
          patterns: [
            { group: ['../../*'] },
            {
              group: ['**/test/*', '**/testing/*', '**/*.test', '**/*.test.*'],
              message: 'Product code never imports tests or test helpers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.tsx'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
);
