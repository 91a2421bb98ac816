import type { ModelPrice } from '@contracts/usage/model-price-map';

/**
 * The default entries of every workspace's model price map: list prices of common OpenAI,
 * Anthropic and Google models in US dollars per million tokens, as their pricing pages published
 * them in 2025 (openai.com/api/pricing, anthropic.com/pricing#api, ai.google.dev/gemini-api/docs/pricing;
 * Gemini 2.5 Pro at its prompts-up-to-200k rate). Read-only, as LangSmith's defaults are: a
 * workspace prices a model differently with an entry of its own, which wins.
 */
const PER_MILLION: readonly {
  name: string;
  provider: string;
  pattern: string;
  input: number;
  output: number;
  cacheRead?: number;
  cacheCreation?: number;
}[] = [
  {
    name: 'gpt-4o',
    provider: 'openai',
    pattern: 'gpt-4o(-\\d{4}-\\d{2}-\\d{2})?',
    input: 2.5,
    output: 10,
    cacheRead: 1.25,
  },
  {
    name: 'gpt-4o-mini',
    provider: 'openai',
    pattern: 'gpt-4o-mini(-\\d{4}-\\d{2}-\\d{2})?',
    input: 0.15,
    output: 0.6,
    cacheRead: 0.075,
  },
  {
    name: 'gpt-4.1',
    provider: 'openai',
    pattern: 'gpt-4\\.1(-\\d{4}-\\d{2}-\\d{2})?',
    input: 2,
    output: 8,
    cacheRead: 0.5,
  },
  {
    name: 'gpt-4.1-mini',
    provider: 'openai',
    pattern: 'gpt-4\\.1-mini(-\\d{4}-\\d{2}-\\d{2})?',
    input: 0.4,
    output: 1.6,
    cacheRead: 0.1,
  },
  {
    name: 'gpt-4.1-nano',
    provider: 'openai',
    pattern: 'gpt-4\\.1-nano(-\\d{4}-\\d{2}-\\d{2})?',
    input: 0.1,
    output: 0.4,
    cacheRead: 0.025,
  },
  {
    name: 'gpt-5',
    provider: 'openai',
    pattern: 'gpt-5(-\\d{4}-\\d{2}-\\d{2})?',
    input: 1.25,
    output: 10,
    cacheRead: 0.125,
  },
  {
    name: 'gpt-5-mini',
    provider: 'openai',
    pattern: 'gpt-5-mini(-\\d{4}-\\d{2}-\\d{2})?',
    input: 0.25,
    output: 2,
    cacheRead: 0.025,
  },
  {
    name: 'o3',
    provider: 'openai',
    pattern: 'o3(-\\d{4}-\\d{2}-\\d{2})?',
    input: 2,
    output: 8,
    cacheRead: 0.5,
  },
  {
    name: 'o4-mini',
    provider: 'openai',
    pattern: 'o4-mini(-\\d{4}-\\d{2}-\\d{2})?',
    input: 1.1,
    output: 4.4,
    cacheRead: 0.275,
  },
  {
    name: 'claude-opus-4',
    provider: 'anthropic',
    pattern: 'claude-opus-4(-[01])?(-\\d{8})?',
    input: 15,
    output: 75,
    cacheRead: 1.5,
    cacheCreation: 18.75,
  },
  {
    name: 'claude-sonnet-4',
    provider: 'anthropic',
    pattern: 'claude-(sonnet-4(-5)?|3-7-sonnet|3-5-sonnet)(-\\d{8}|-latest)?',
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheCreation: 3.75,
  },
  {
    name: 'claude-3-5-haiku',
    provider: 'anthropic',
    pattern: 'claude-3-5-haiku(-\\d{8}|-latest)?',
    input: 0.8,
    output: 4,
    cacheRead: 0.08,
    cacheCreation: 1,
  },
  {
    name: 'gemini-2.5-pro',
    provider: 'google_genai',
    pattern: '(models/)?gemini-2\\.5-pro(-[a-z0-9-]+)?',
    input: 1.25,
    output: 10,
    cacheRead: 0.31,
  },
  {
    name: 'gemini-2.5-flash',
    provider: 'google_genai',
    pattern: '(models/)?gemini-2\\.5-flash',
    input: 0.3,
    output: 2.5,
    cacheRead: 0.075,
  },
  {
    name: 'gemini-2.5-flash-lite',
    provider: 'google_genai',
    pattern: '(models/)?gemini-2\\.5-flash-lite',
    input: 0.1,
    output: 0.4,
    cacheRead: 0.025,
  },
  {
    name: 'gemini-2.0-flash',
    provider: 'google_genai',
    pattern: '(models/)?gemini-2\\.0-flash(-\\d{3})?',
    input: 0.1,
    output: 0.4,
    cacheRead: 0.025,
  },
];

const perToken = (perMillion: number) => perMillion / 1_000_000;

/**
 * The defaults as price map entries. Patterns are anchored and accept a provider prefix
 * (`openai/gpt-4o`), as model names reach LangSmith either way. No provider condition: runs of
 * OpenAI models through Azure or a proxy name other providers and pay the list price too.
 */
export const DEFAULT_MODEL_PRICES: readonly ModelPrice[] = PER_MILLION.map((entry, index) => ({
  id: `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
  tenant_id: null,
  name: entry.name,
  match_pattern: `^(${entry.provider}/)?${entry.pattern}$`,
  match_path: ['model_name'],
  prompt_cost: perToken(entry.input),
  completion_cost: perToken(entry.output),
  prompt_cost_details: {
    ...(entry.cacheRead !== undefined && { cache_read: perToken(entry.cacheRead) }),
    ...(entry.cacheCreation !== undefined && { cache_creation: perToken(entry.cacheCreation) }),
  },
  completion_cost_details: {},
  provider: null,
  start_time: null,
}));
