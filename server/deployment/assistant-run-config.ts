import type { Assistant } from './assistants';

/** A run's `config` as the SDK sends it (`tags`, `recursion_limit`, `configurable`, ...). */
export type RunConfig = Record<string, unknown> & { configurable?: Record<string, unknown> };

const configurableOf = (config: Record<string, unknown> | null | undefined) => {
  const configurable = config?.configurable;
  return typeof configurable === 'object' && configurable !== null
    ? (configurable as Record<string, unknown>)
    : {};
};

/**
 * The config a run executes with, merged as the official server merges it: the assistant's
 * config, overridden by the run's, `configurable` merged key by key, then the ids the platform
 * puts in `configurable` (a node may read `run_id`, `thread_id`, `graph_id`, `assistant_id`).
 */
export function runConfigFor(
  assistant: Pick<Assistant, 'assistant_id' | 'graph_id' | 'config'>,
  runConfig: RunConfig | null | undefined,
  ids: { run_id: string; thread_id: string },
): RunConfig {
  return {
    ...assistant.config,
    ...runConfig,
    configurable: {
      ...configurableOf(assistant.config),
      ...configurableOf(runConfig),
      ...ids,
      graph_id: assistant.graph_id,
      assistant_id: assistant.assistant_id,
    },
  };
}
