import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** One file of a graph's generative UI bundle (`entrypoint.js`, `entrypoint.css`). */
export interface GraphUiFile {
  basename: string;
  contents: Uint8Array;
}

/** The bundles of langgraph.json's `ui`, by the name it gives them (usually a graph id). */
export type GraphUi = ReadonlyMap<string, GraphUiFile[]>;

/**
 * Bundles langgraph.json's `ui` entries (`{"agent": "./agent/ui.tsx"}`) with the official
 * bundler (@langchain/langgraph-ui, esbuild), as the official server does at start-up, and
 * keeps the files in memory. `shared` is `ui_config.shared`: packages the page provides.
 */
export async function buildGraphUi(
  defs: Record<string, string>,
  options: { cwd: string; shared?: string[] },
): Promise<GraphUi> {
  // Loaded only when a langgraph.json has `ui` (as the official server does): esbuild comes with
  // it, and refuses to load in a jsdom test environment.
  const { build } = await import('@langchain/langgraph-ui');
  const output = await mkdtemp(path.join(tmpdir(), 'graph-ui-'));
  try {
    await build({
      cwd: options.cwd,
      defs,
      config: options.shared ? { shared: options.shared } : {},
      output,
    });
    const bundles = new Map<string, GraphUiFile[]>();
    for (const name of Object.keys(defs)) {
      const folder = path.join(output, 'public', name);
      const basenames = await readdir(folder);
      const files = await Promise.all(
        basenames.map(async (basename) => ({
          basename,
          contents: new Uint8Array(await readFile(path.join(folder, basename))),
        })),
      );
      bundles.set(name, files);
    }
    return bundles;
  } finally {
    await rm(output, { recursive: true, force: true });
  }
}
