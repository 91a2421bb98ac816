import type { Assistant } from './assistant-registry';
import { isRecord } from '../wire/json-contains';

/** A run's `config` as the SDK sends it (`tags`, `recursion_limit`, `configurable`, ...). */
export type RunConfig = Record<string, unknown> & { configurable?: Record<string, unknown> };

const configurableOf = (config: Record<string, unknown> | null | undefined) =>
  isRecord(config?.configurable) ? config.configurable : {};

/** Credentials are never copied into a run's config, where nodes and traces would see them. */
const SECRET_HEADERS = new Set(['x-api-key', 'x-tenant-id', 'x-service-key']);

/**
 * The request headers a run's nodes see in `configurable`, as on the platform: every `x-*`
 * header but credentials, and `user-agent` (names lower-cased, as `Headers` gives them).
 */
export function configurableHeaders(headers: Headers | undefined): Record<string, string> {
  const picked: Record<string, string> = {};
  headers?.forEach((value, key) => {
    if ((key.startsWith('x-') && !SECRET_HEADERS.has(key)) || key === 'user-agent') {
      picked[key] = value;
    }
  });
  return picked;
}

/**
 * The config a run executes with, merged as the official server merges it: the assistant's
 * config, overridden by the run's, `configurable` merged key by key, then the request's
 * configurable headers, then the ids the platform puts in `configurable` (a node may read
 * `run_id`, `thread_id`, `graph_id`, `assistant_id`).
 */
export function runConfigFor(
  assistant: Pick<Assistant, 'assistant_id' | 'graph_id' | 'config'>,
  runConfig: RunConfig | null | undefined,
  ids: { run_id: string; thread_id: string },
  headers?: Headers,
): RunConfig {
  return {
    ...assistant.config,
    ...runConfig,
    configurable: {
      ...configurableOf(assistant.config),
      ...configurableOf(runConfig),
      ...configurableHeaders(headers),
      ...ids,
      graph_id: assistant.graph_id,
      assistant_id: assistant.assistant_id,
    },
  };
}
