import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * A module resolve hook (run in Node's loader thread; a data: URL so it needs no build step):
 * a bare import that the graph's own folder cannot resolve (`@langchain/langgraph`, `zod`,
 * `hono`, ...) is resolved again as if imported from `parentUrl`. A langgraph.json outside this
 * repo without its own node_modules then runs on our packages, the same instances the server uses
 * (so `instanceof` checks on graphs and commands hold). A graph with its own node_modules keeps
 * them: the fallback runs only when the normal resolution fails.
 */
const hookSource = (parentUrl: string) => `
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const bare = !/^([.]|[/]|[a-z]+:)/i.test(specifier);
    if (!bare || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return next(specifier, { ...context, parentURL: ${JSON.stringify(parentUrl)} });
  }
}`;

let registered = false;

/** Registers the hook once per process; `repoRoot` is the folder whose node_modules serve. */
export function registerFallbackResolve(repoRoot: string): void {
  if (registered) return;
  registered = true;
  const parentUrl = pathToFileURL(`${repoRoot}/package.json`).href;
  register(`data:text/javascript,${encodeURIComponent(hookSource(parentUrl))}`);
}
