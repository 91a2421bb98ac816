import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaProjectFor } from './schema-project';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('schemaProjectFor', () => {
  it('parses graphs in place when their folder resolves the packages', async () => {
    const fixtures = path.join(repoRoot, 'server/deployment/test/fixtures/graphs');
    const project = await schemaProjectFor(fixtures, repoRoot);
    expect(project.dir).toBe(fixtures);
  });

  it('links a folder without packages into a temporary project, removed on dispose', async () => {
    const graphs = await mkdtemp(path.join(tmpdir(), 'graphs-without-packages-'));
    try {
      const project = await schemaProjectFor(graphs, repoRoot);
      const root = path.dirname(project.dir);
      expect(await realpath(project.dir)).toBe(await realpath(graphs));
      expect(await realpath(path.join(root, 'node_modules'))).toBe(
        await realpath(path.join(repoRoot, 'node_modules')),
      );
      const tsconfigText = await readFile(path.join(root, 'tsconfig.json'), 'utf8');
      const tsconfig = JSON.parse(tsconfigText) as { compilerOptions: unknown };
      expect(tsconfig.compilerOptions).toMatchObject({ preserveSymlinks: true });
      await project.dispose();
      expect(existsSync(root)).toBe(false);
      expect(existsSync(graphs)).toBe(true);
    } finally {
      await rm(graphs, { recursive: true, force: true });
    }
  });
});
