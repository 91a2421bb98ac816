import { randomUUID } from 'node:crypto';
import {
  BaseChatModel,
  type BaseChatModelParams,
} from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { contentText, scriptedReply } from './scripted-model';

/** The model name the demo's LLM runs report (no list price: the console shows it unpriced). */
export const SCRIPTED_MODEL_NAME = 'scripted-weather-1';

/** Tokens of a text as the usual rule of thumb counts them: about four characters each. */
const tokens = (text: string) => Math.ceil(text.length / 4);

/**
 * The scripted model as a LangChain chat model, so each agent step is traced as an LLM run that
 * names its model (`ls_provider`, `ls_model_name`) and reports `usage_metadata`, as provider
 * integrations do: a playground run's tokens then appear in the console's LLM usage.
 */
export class ScriptedChatModel extends BaseChatModel {
  constructor(params: BaseChatModelParams = {}) {
    super(params);
  }

  _llmType(): string {
    return 'scripted';
  }

  override getLsParams(options: this['ParsedCallOptions']) {
    return {
      ...super.getLsParams(options),
      ls_provider: 'scripted',
      ls_model_name: SCRIPTED_MODEL_NAME,
    };
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const reply = scriptedReply(messages, `call_${randomUUID()}`);
    const input = messages.reduce((sum, message) => sum + tokens(contentText(message)), 0);
    const output = tokens(contentText(reply) + JSON.stringify(reply.tool_calls ?? []));
    reply.usage_metadata = {
      input_tokens: input,
      output_tokens: output,
      total_tokens: input + output,
    };
    return { generations: [{ message: reply, text: contentText(reply) }] };
  }
}
