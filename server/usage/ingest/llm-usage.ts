/**
 * What one LLM run spent, read from a run create/update as the `langsmith` SDK and LangChain send
 * it: the model that ran, its token counts by type and any cost the run declares. Pure: it never
 * throws on a payload, and a run without usage yields nothing (it counts nothing and fails
 * nothing).
 */
export interface LlmUsage {
  runId: string;
  /** `ls_model_name`, or the first model field of `invocation_params`; null when none is sent. */
  modelName: string | null;
  /** `ls_provider`; null when not sent. */
  modelProvider: string | null;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens read from a prompt cache (`input_token_details.cache_read`). */
  cacheReadTokens: number;
  /** Input tokens written to a prompt cache (`input_token_details.cache_creation`). */
  cacheCreationTokens: number;
  /** Output tokens spent reasoning (`output_token_details.reasoning`). */
  reasoningTokens: number;
  /** The cost the run declares (`total_cost`, else `input_cost + output_cost`), or null. */
  declaredCost: number | null;
}

/** One create or update of a run, as it arrives (multipart field parts merged into it). */
export interface LlmRunPart {
  kind: 'post' | 'patch';
  payload: unknown;
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const record = (value: unknown): Json => (isRecord(value) ? value : {});

/** Above these a figure is not a real run's: it counts as absent (and sums stay exact). */
const MAX_TOKENS = 1e12;
const MAX_COST_USD = 1e6;
const MAX_NAME_LENGTH = 200;

/** A token count: a finite non-negative number, whole; anything else counts as absent. */
const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_TOKENS
    ? Math.round(value)
    : null;

/** A cost: a finite non-negative number (strings as Python's Decimal serialises them too). */
const cost = (value: unknown): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0
    ? number <= MAX_COST_USD
      ? number
      : null
    : null;
};

/** A model or provider name: trimmed, without control characters (a store may refuse NUL). */
const text = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const clean = [...value]
    .filter((char) => {
      const code = char.charCodeAt(0);
      return code > 0x1f && code !== 0x7f;
    })
    .join('')
    .trim();
  return clean === '' ? null : clean.slice(0, MAX_NAME_LENGTH);
};

/**
 * The model-name fields LangSmith reads, in its order of precedence (docs `cost-tracking`):
 * `metadata.ls_model_name`, then these `invocation_params` fields.
 */
const INVOCATION_MODEL_FIELDS = [
  'model',
  'model_name',
  'model_id',
  'model_path',
  'endpoint_name',
] as const;

function modelOf(extra: Json): { modelName: string | null; modelProvider: string | null } {
  const metadata = record(extra.metadata);
  const params = record(extra.invocation_params);
  let modelName = text(metadata.ls_model_name);
  for (const field of INVOCATION_MODEL_FIELDS) modelName ??= text(params[field]);
  return { modelName, modelProvider: text(metadata.ls_provider) };
}

/** A `usage_metadata` object when it carries at least one count or cost. */
function usageMetadata(value: unknown): Json | null {
  if (!isRecord(value)) return null;
  const keys = ['input_tokens', 'output_tokens', 'total_tokens', 'total_cost', 'input_cost'];
  return keys.some((key) => value[key] !== undefined) || value.output_cost !== undefined
    ? value
    : null;
}

/** LangChain's legacy `llm_output.token_usage` (Python) / `llmOutput.tokenUsage` (JS). */
function legacyTokenUsage(outputs: Json): Json | null {
  const python = record(record(outputs.llm_output).token_usage);
  const js = record(record(outputs.llmOutput).tokenUsage);
  const input = count(python.prompt_tokens) ?? count(js.promptTokens);
  const output = count(python.completion_tokens) ?? count(js.completionTokens);
  if (input === null && output === null) return null;
  return {
    input_tokens: input ?? 0,
    output_tokens: output ?? 0,
    total_tokens: count(python.total_tokens) ?? count(js.totalTokens) ?? undefined,
  };
}

/** The usage of a LangChain serialised message (`{lc: 1, kwargs: {usage_metadata}}`) or a plain one. */
const messageUsage = (message: unknown): Json | null =>
  usageMetadata(record(message).usage_metadata) ??
  usageMetadata(record(record(message).kwargs).usage_metadata);

/** Adds up the usage of every generation (one per prompt of a batched call). */
function generationsUsage(generations: unknown): Json | null {
  if (!Array.isArray(generations)) return null;
  const flat: unknown[] = generations.flatMap((item: unknown) =>
    Array.isArray(item) ? item : [item],
  );
  const found = flat
    .map((generation) => messageUsage(record(generation).message))
    .filter((usage): usage is Json => usage !== null);
  if (found.length === 0) return null;
  if (found.length === 1) return found[0] ?? null;
  const sum = (read: (usage: Json) => unknown) =>
    found.reduce((total, usage) => total + (count(read(usage)) ?? 0), 0);
  return {
    input_tokens: sum((usage) => usage.input_tokens),
    output_tokens: sum((usage) => usage.output_tokens),
    total_tokens: sum((usage) => usage.total_tokens),
    input_token_details: {
      cache_read: sum((usage) => record(usage.input_token_details).cache_read),
      cache_creation: sum((usage) => record(usage.input_token_details).cache_creation),
    },
    output_token_details: {
      reasoning: sum((usage) => record(usage.output_token_details).reasoning),
    },
  };
}

/**
 * Where a run carries its usage, in the order LangSmith's own readers look: the outputs' top
 * level (the `langsmith` SDK's `traceable` and wrappers), the metadata (LangChain's tracer), a
 * message among the outputs, the generations of a LangChain LLM result, LangChain's legacy
 * token usage.
 */
function findUsage(outputs: Json, extra: Json): Json | null {
  const direct =
    usageMetadata(outputs.usage_metadata) ?? usageMetadata(record(extra.metadata).usage_metadata);
  if (direct) return direct;
  for (const [key, value] of Object.entries(outputs)) {
    if (key === 'generations') continue;
    const nested = messageUsage(value);
    if (nested) return nested;
  }
  return generationsUsage(outputs.generations) ?? legacyTokenUsage(outputs);
}

function declaredCostOf(usage: Json): number | null {
  const total = cost(usage.total_cost);
  if (total !== null) return total;
  const input = cost(usage.input_cost);
  const output = cost(usage.output_cost);
  return input === null && output === null ? null : (input ?? 0) + (output ?? 0);
}

/**
 * Merges a run's parts in the order sent (an update's fields over its create's; `extra.metadata`
 * key by key, as an update often repeats only part of it), then reads the usage. Runs typed as
 * anything but `llm` count nothing: LangSmith rolls child LLM usage up to their parents itself,
 * so a chain repeating it would count it twice. An update alone carries no `run_type`: it counts.
 */
export function extractLlmUsage(runId: string, parts: readonly LlmRunPart[]): LlmUsage | null {
  let outputs: Json = {};
  let extra: Json = {};
  let runType: string | null = null;
  for (const { payload } of parts) {
    if (!isRecord(payload)) continue;
    runType = text(payload.run_type) ?? runType;
    if (isRecord(payload.outputs)) outputs = payload.outputs;
    if (isRecord(payload.extra)) {
      const metadata = { ...record(extra.metadata), ...record(payload.extra.metadata) };
      extra = { ...extra, ...payload.extra, metadata };
    }
  }
  if (runType !== null && runType !== 'llm') return null;
  const usage = findUsage(outputs, extra);
  if (!usage) return null;
  const inputTokens = count(usage.input_tokens) ?? 0;
  const outputTokens = count(usage.output_tokens) ?? 0;
  const inputDetails = record(usage.input_token_details);
  const declaredCost = declaredCostOf(usage);
  const totalTokens = count(usage.total_tokens) ?? inputTokens + outputTokens;
  if (totalTokens === 0 && inputTokens === 0 && outputTokens === 0 && declaredCost === null) {
    return null;
  }
  return {
    runId,
    ...modelOf(extra),
    inputTokens,
    outputTokens,
    totalTokens,
    cacheReadTokens: count(inputDetails.cache_read) ?? 0,
    cacheCreationTokens: count(inputDetails.cache_creation) ?? 0,
    reasoningTokens: count(record(usage.output_token_details).reasoning) ?? 0,
    declaredCost,
  };
}

/** The usage of every run of a request that reports some, one entry per run id. */
export function extractRequestLlmUsage(
  operations: readonly { kind: 'post' | 'patch'; runId: string; payload: unknown }[],
  runIds: ReadonlySet<string>,
): LlmUsage[] {
  const byRun = new Map<string, LlmRunPart[]>();
  for (const { kind, runId, payload } of operations) {
    if (!runIds.has(runId)) continue;
    const parts = byRun.get(runId) ?? [];
    parts.push({ kind, payload });
    byRun.set(runId, parts);
  }
  const found: LlmUsage[] = [];
  for (const [runId, parts] of byRun) {
    const usage = extractLlmUsage(runId, parts);
    if (usage) found.push(usage);
  }
  return found;
}
