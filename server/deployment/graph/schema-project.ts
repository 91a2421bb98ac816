import { createRequire } from 'node:module';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where the TypeScript parser reads a langgraph.json's graph files from, and how to clean up. */
export interface SchemaProject {
  /** The folder the graph files are read from (the langgraph.json's, or a link to it). */
  dir: string;
  dispose: () => Promise<void>;
}

const canResolve = (fromDir: string, specifier: string): boolean => {
  try {
    createRequire(path.join(fromDir, 'noop.js')).resolve(specifier);
    return true;
  } catch {
    return false;
  }
};

/**
 * The official schema parser type-checks the graph files, so it must find `@langchain/langgraph`'s
 * types from their folder. A langgraph.json outside this repo with no node_modules of its own runs
 * on our packages (see fallback-resolve.ts); for the parser it is reached through a temporary
 * folder holding a link to it, a link to our node_modules and a tsconfig that keeps the links'
 * paths (`preserveSymlinks`) and skips checking the packages' declarations (3x faster). Nothing
 * is written to or copied from the graphs' folder.
 */
export async function schemaProjectFor(baseDir: string, repoRoot: string): Promise<SchemaProject> {
  if (canResolve(baseDir, '@langchain/langgraph')) return { dir: baseDir, dispose: async () => {} };
  const root = await mkdtemp(path.join(tmpdir(), 'langgraph-schemas-'));
  await symlink(baseDir, path.join(root, 'graphs'), 'dir');
  await symlink(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  const compilerOptions = {
    preserveSymlinks: true,
    skipLibCheck: true,
    esModuleInterop: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
  };
  await writeFile(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions }));
  return {
    dir: path.join(root, 'graphs'),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}
