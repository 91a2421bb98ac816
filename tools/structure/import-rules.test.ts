import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The project's ESLint configuration, run on one import written into a file at a given place:
 * proves the rules that keep the layers (`import-x/no-restricted-paths`) and keep tests and
 * tooling out of the product (`no-restricted-imports`) refuse what they must and let the rest
 * through. `npx eslint .` (in `npm run lint`) applies them to every file.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });
const LAYER_RULES = ['import-x/no-restricted-paths', 'no-restricted-imports'];

/** The layer and import rules `specifier`, imported by a file at `filePath`, breaks. */
async function brokenRules(filePath: string, specifier: string): Promise<string[]> {
  const code = `import * as probe from '${specifier}';\n\nexport const used = probe;\n`;
  const [result] = await eslint.lintText(code, { filePath });
  const rules = (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
  return rules.filter((rule) => LAYER_RULES.includes(rule));
}

describe('no product file imports tools/ or a test helper', () => {
  it.each([
    ['server/probe.ts', '../tools/usage/bench-measure', 'import-x/no-restricted-paths'],
    ['src/probe.ts', '../tools/bundle/first-load', 'import-x/no-restricted-paths'],
    ['contracts/probe.ts', '../tools/bundle/first-load', 'import-x/no-restricted-paths'],
    ['server/usage/http/probe.ts', '../test/ingest-helpers', 'no-restricted-imports'],
    ['src/features/usage/api/probe.ts', '../testing/stub-usage-server', 'no-restricted-imports'],
    ['src/lib/probe.ts', '@/testing/render-app', 'no-restricted-imports'],
    ['server/usage/http/probe.ts', './usage-routes.test', 'no-restricted-imports'],
  ])('%s importing %s breaks %s', async (filePath, specifier, rule) => {
    expect(await brokenRules(filePath, specifier)).toContain(rule);
  });

  it.each([
    ['server/usage/http/probe.test.ts', '../test/ingest-helpers'],
    ['tools/usage/probe.ts', '@server/usage/test/ingest-helpers'],
  ])('a test or a tool may: %s importing %s', async (filePath, specifier) => {
    expect(await brokenRules(filePath, specifier)).toEqual([]);
  });
});

describe('no import from a lower layer to a higher one', () => {
  it.each([
    ['contracts/probe.ts', '@/lib/format'],
    ['contracts/probe.ts', '@server/config'],
    ['src/lib/probe.ts', '@/features/usage/api/get-workspaces'],
    ['src/features/usage/probe.ts', '@/app/app-routes'],
    ['src/features/usage/probe.ts', '@server/config'],
    ['server/usage/store/probe.ts', '../http/usage-routes'],
    ['server/usage/store/probe.ts', '../queries/get-usage'],
    ['server/usage/queries/probe.ts', '../http/usage-routes'],
    ['server/usage/model/probe.ts', '../store/usage-store'],
    ['server/usage/http/probe.ts', '../store/duckdb/duckdb-usage-store'],
    ['server/usage/store/duckdb/probe.ts', '../scale-out/scale-out-usage-store'],
    ['server/usage/probe.ts', '@server/deployment/deployment-service'],
    ['server/lib/probe.ts', '@server/usage/usage-service'],
    ['server/deployment/store/probe.ts', '../http/run-routes'],
    ['server/deployment/use-cases/probe.ts', '../http/run-routes'],
  ])('%s importing %s is refused', async (filePath, specifier) => {
    expect(await brokenRules(filePath, specifier)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['server/usage/http/probe.ts', '../queries/get-usage'],
    ['server/usage/queries/probe.ts', '../store/usage-store'],
    ['server/usage/store/probe.ts', '../model/usage-plan'],
    ['src/features/usage/probe.ts', '@/lib/format'],
    ['src/app/probe.ts', '@/features/usage/api/get-workspaces'],
    ['src/lib/probe.ts', '@contracts/console-roles'],
  ])('downwards is allowed: %s importing %s', async (filePath, specifier) => {
    expect(await brokenRules(filePath, specifier)).toEqual([]);
  });
});
