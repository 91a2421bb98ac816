import { describe, expect, it } from 'vitest';
import { extractLlmUsage, extractRequestLlmUsage, type LlmUsage } from './llm-usage';
import { parseRunMultipart } from './parse-run-multipart';

const RUN = '01a22287-a330-73dc-9ceb-622770e446c4';
const OTHER = '01a22287-a345-7000-8000-0264b22ebea0';

/** The parts `@langchain/core` 1.4's tracer sends for a chat model call (as captured). */
const langchainChat = {
  id: RUN,
  session_name: 'p1',
  name: 'ChatOpenAI',
  run_type: 'llm',
  trace_id: RUN,
  outputs: {
    generations: [
      [
        {
          text: 'hi',
          message: {
            lc: 1,
            type: 'constructor',
            id: ['langchain_core', 'messages', 'AIMessage'],
            kwargs: {
              content: 'hi',
              usage_metadata: {
                input_tokens: 10,
                output_tokens: 5,
                total_tokens: 15,
                input_token_details: { cache_read: 3 },
                output_token_details: {},
              },
            },
          },
        },
      ],
    ],
    llmOutput: {},
  },
  extra: {
    invocation_params: { model: 'gpt-4o-2024-08-06', temperature: 0 },
    metadata: {
      ls_model_type: 'chat',
      ls_provider: 'openai',
      ls_model_name: 'gpt-4o',
      usage_metadata: {
        input_tokens: 10,
        output_tokens: 5,
        total_tokens: 15,
        input_token_details: { cache_read: 3 },
        output_token_details: {},
      },
    },
  },
};

/** The `langsmith` SDK's `traceable` with run_type llm and a declared cost (as captured). */
const traceableLlm = {
  id: OTHER,
  session_name: 'p2',
  run_type: 'llm',
  outputs: {
    choices: [],
    usage_metadata: { input_tokens: 7, output_tokens: 2, total_tokens: 9, total_cost: 0.01 },
  },
  extra: { metadata: { ls_provider: 'openai', ls_model_name: 'gpt-4o' } },
};

const usage = (fields: Partial<LlmUsage>): LlmUsage => ({
  runId: RUN,
  modelName: null,
  modelProvider: null,
  inputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  cacheReadTokens: 0,
  cacheCreationTokens: 0,
  reasoningTokens: 0,
  declaredCost: null,
  ...fields,
});

describe('extractLlmUsage', () => {
  it('reads a LangChain chat run: model from ls_model_name, tokens once (not per place)', () => {
    expect(extractLlmUsage(RUN, [{ kind: 'post', payload: langchainChat }])).toEqual(
      usage({
        modelName: 'gpt-4o',
        modelProvider: 'openai',
        inputTokens: 10,
        outputTokens: 5,
        totalTokens: 15,
        cacheReadTokens: 3,
      }),
    );
  });

  it('reads a traceable run and its declared cost', () => {
    expect(extractLlmUsage(OTHER, [{ kind: 'post', payload: traceableLlm }])).toEqual(
      usage({
        runId: OTHER,
        modelName: 'gpt-4o',
        modelProvider: 'openai',
        inputTokens: 7,
        outputTokens: 2,
        totalTokens: 9,
        declaredCost: 0.01,
      }),
    );
  });

  it('joins a create (model) and an update (outputs) of the same run', () => {
    const create = { id: RUN, run_type: 'llm', extra: { metadata: { ls_model_name: 'claude' } } };
    const update = {
      id: RUN,
      outputs: {
        usage_metadata: {
          input_tokens: 100,
          output_tokens: 40,
          total_tokens: 140,
          input_token_details: { cache_read: 60, cache_creation: 20 },
          output_token_details: { reasoning: 12 },
          input_cost: 0.5,
          output_cost: '0.25',
        },
      },
      extra: { metadata: { ls_provider: 'anthropic' } },
    };
    expect(
      extractLlmUsage(RUN, [
        { kind: 'post', payload: create },
        { kind: 'patch', payload: update },
      ]),
    ).toEqual(
      usage({
        modelName: 'claude',
        modelProvider: 'anthropic',
        inputTokens: 100,
        outputTokens: 40,
        totalTokens: 140,
        cacheReadTokens: 60,
        cacheCreationTokens: 20,
        reasoningTokens: 12,
        declaredCost: 0.75,
      }),
    );
  });

  it.each([
    ['invocation_params.model', { model: 'a', model_name: 'b' }, 'a'],
    ['invocation_params.model_name', { model_name: 'b', model_id: 'c' }, 'b'],
    ['invocation_params.model_id', { model_id: 'c', model_path: 'd' }, 'c'],
    ['invocation_params.model_path', { model_path: 'd', endpoint_name: 'e' }, 'd'],
    ['invocation_params.endpoint_name', { endpoint_name: 'e' }, 'e'],
    ['nothing', { temperature: 1 }, null],
  ])('falls back to %s without ls_model_name', (_label, params, expected) => {
    const payload = {
      run_type: 'llm',
      outputs: { usage_metadata: { input_tokens: 1, output_tokens: 1 } },
      extra: { invocation_params: params },
    };
    expect(extractLlmUsage(RUN, [{ kind: 'post', payload }])?.modelName).toBe(expected);
  });

  it('adds up the generations of a batched call, and reads legacy token usage', () => {
    const message = (input: number, output: number) => ({
      message: { kwargs: { usage_metadata: { input_tokens: input, output_tokens: output } } },
    });
    const batched = { outputs: { generations: [[message(3, 1)], [message(4, 2)]] } };
    expect(extractLlmUsage(RUN, [{ kind: 'post', payload: batched }])).toMatchObject({
      inputTokens: 7,
      outputTokens: 3,
    });
    const legacy = {
      outputs: { llm_output: { token_usage: { prompt_tokens: 20, completion_tokens: 8 } } },
    };
    expect(extractLlmUsage(RUN, [{ kind: 'post', payload: legacy }])).toMatchObject({
      inputTokens: 20,
      outputTokens: 8,
      totalTokens: 28,
    });
  });

  it.each([
    ['a chain repeating its children’s usage', { ...traceableLlm, run_type: 'chain' }],
    ['an LLM run without usage', { run_type: 'llm', outputs: { text: 'hi' } }],
    ['zero tokens and no cost', { outputs: { usage_metadata: { input_tokens: 0 } } }],
    [
      'garbage counts',
      { outputs: { usage_metadata: { input_tokens: 'many', output_tokens: -1 } } },
    ],
    ['outputs that are not an object', { outputs: ['x'], extra: 'y' }],
    ['a payload that is not an object', 'not a run'],
  ])('counts nothing for %s', (_label, payload) => {
    expect(extractLlmUsage(RUN, [{ kind: 'post', payload }])).toBeNull();
  });
});

describe('usage through the multipart parser', () => {
  it('keeps the outputs and extra parts with their run', () => {
    const form = new FormData();
    const { outputs, extra, ...main } = traceableLlm;
    form.append(`post.${OTHER}`, JSON.stringify(main));
    form.append(`post.${OTHER}.inputs`, JSON.stringify({ input: 'x' }));
    form.append(`post.${OTHER}.outputs`, JSON.stringify(outputs));
    form.append(`post.${OTHER}.extra`, JSON.stringify(extra));
    const parsed = parseRunMultipart(form);
    expect(extractRequestLlmUsage(parsed.operations, new Set([OTHER]))).toEqual([
      usage({
        runId: OTHER,
        modelName: 'gpt-4o',
        modelProvider: 'openai',
        inputTokens: 7,
        outputTokens: 2,
        totalTokens: 9,
        declaredCost: 0.01,
      }),
    ]);
    expect(extractRequestLlmUsage(parsed.operations, new Set())).toEqual([]);
  });
});

describe('hostile values', () => {
  it('drops control characters from names, caps their length, and ignores absurd figures', () => {
    const payload = {
      run_type: 'llm',
      outputs: {
        usage_metadata: { input_tokens: 1e15, output_tokens: 3, total_cost: 1e9 },
      },
      extra: {
        metadata: { ls_model_name: `gpt\u0000-4o\n${'x'.repeat(500)}`, ls_provider: ' \u0007 ' },
      },
    };
    const usage = extractLlmUsage(RUN, [{ kind: 'post', payload }]);
    expect(usage?.modelName).toBe(`gpt-4o${'x'.repeat(194)}`);
    expect(usage?.modelProvider).toBeNull();
    expect(usage).toMatchObject({
      inputTokens: 0,
      outputTokens: 3,
      totalTokens: 3,
      declaredCost: null,
    });
  });
});
