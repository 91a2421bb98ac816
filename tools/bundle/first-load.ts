/**
 * One chunk of Vite's build manifest (`dist/.vite/manifest.json`), keyed there by its source
 * path (`index.html`, `src/...`) or, for chunks without one, by `_<file>`.
 */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/**
 * The script files a page loads for `roots` (manifest keys): each root's chunk and everything it
 * imports statically, transitively, each file once, in the order first reached. Dynamic imports
 * are not followed: a lazy chunk counts only when it is itself a root.
 */
export function staticClosure(manifest: Manifest, roots: readonly string[]): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no chunk "${key}".`);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const root of roots) visit(root);
  return files;
}

/**
 * The one manifest key whose source path ends with `suffix` (a path below `src/`, so the check
 * keeps working if a module moves to a sub-folder); throws when none or several match.
 */
export function findManifestKey(manifest: Manifest, suffix: string): string {
  const keys = Object.keys(manifest).filter((key) => key === suffix || key.endsWith(`/${suffix}`));
  if (keys.length !== 1) {
    const found = keys.length === 0 ? 'none' : keys.join(', ');
    throw new Error(`Expected one chunk for "${suffix}" in the build manifest, found ${found}.`);
  }
  return keys[0] as string;
}

/**
 * Of `names` (module file names, as for `findManifestKey`), those that do not load on their own:
 * no chunk of their own in the manifest (the bundler merged them into another), or a chunk
 * among the first-load `files`.
 */
export function eagerModules(
  manifest: Manifest,
  files: readonly string[],
  names: readonly string[],
): string[] {
  const loaded = new Set(files);
  return names.filter((name) => {
    const key = Object.keys(manifest).find(
      (candidate) => candidate === name || candidate.endsWith(`/${name}`),
    );
    const chunk = key === undefined ? undefined : manifest[key];
    return !chunk?.isDynamicEntry || loaded.has(chunk.file);
  });
}

export interface ScriptSize {
  file: string;
  bytes: number;
}

export interface BudgetReport {
  scripts: ScriptSize[];
  total: number;
  budget: number;
  over: boolean;
}

/** Adds up the scripts' sizes on the wire and compares the total with the budget (bytes). */
export function checkBudget(scripts: readonly ScriptSize[], budget: number): BudgetReport {
  const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
  return { scripts: [...scripts], total, budget, over: total > budget };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The report as lines: the verdict, then each script largest first. */
export function formatBudgetReport(report: BudgetReport, what: string): string {
  const verdict = report.over
    ? `${what}: ${kb(report.total)}, over the ${kb(report.budget)} budget by ${kb(report.total - report.budget)}.`
    : `${what}: ${kb(report.total)}, within the ${kb(report.budget)} budget (${kb(report.budget - report.total)} to spare).`;
  const lines = [...report.scripts]
    .sort((a, b) => b.bytes - a.bytes)
    .map((script) => `  ${kb(script.bytes).padStart(9)}  ${script.file}`);
  return [verdict, ...lines].join('\n');
}
