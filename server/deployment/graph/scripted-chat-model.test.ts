import { HumanMessage } from '@langchain/core/messages';
import type { ChatGeneration } from '@langchain/core/outputs';
import { describe, expect, it } from 'vitest';
import { SCRIPTED_MODEL_NAME, ScriptedChatModel } from './scripted-chat-model';

describe('ScriptedChatModel', () => {
  it('replies as the scripted model and reports its usage, as LangChain traces it', async () => {
    const model = new ScriptedChatModel();
    const traced: { extra?: Record<string, unknown>; outputs?: Record<string, unknown> }[] = [];
    const reply = await model.invoke([new HumanMessage('weather in nyc?')], {
      callbacks: [
        {
          handleChatModelStart: (
            _llm,
            _messages,
            _runId,
            _parent,
            extraParams,
            _tags,
            metadata,
          ) => {
            traced.push({ extra: { ...extraParams, metadata } });
          },
          handleLLMEnd: (output) => {
            traced.push({ outputs: { ...output } });
          },
        },
      ],
    });
    expect(reply.tool_calls?.[0]?.args).toEqual({ city: 'nyc' });
    // "weather in nyc?" is 15 characters: 4 tokens in.
    expect(reply.usage_metadata).toMatchObject({ input_tokens: 4 });
    // What the tracer sends: the model named in the metadata, the usage on the message.
    expect(traced[0]?.extra?.metadata).toMatchObject({
      ls_provider: 'scripted',
      ls_model_name: SCRIPTED_MODEL_NAME,
    });
    const [generation] =
      (traced[1]?.outputs?.generations as ChatGeneration[][] | undefined)?.[0] ?? [];
    const message = generation?.message;
    expect(message && 'usage_metadata' in message ? message.usage_metadata : undefined).toEqual(
      reply.usage_metadata,
    );
  });
});
