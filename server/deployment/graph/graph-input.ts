import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type MessageContent,
  SystemMessage,
} from '@langchain/core/messages';
import type { InputMessage, RunInput } from '@contracts/deployment';

/** Turns a validated run input (messages with `role` or `type`) into LangChain messages. */
export function toGraphInput(input: RunInput): { messages: BaseMessage[] } {
  return { messages: input.messages.map(toMessage) };
}

function toMessage(message: InputMessage): BaseMessage {
  // Blocks were validated as objects with a `type`; LangChain checks each kind when it reads them.
  const fields = { content: message.content as MessageContent, id: message.id };
  switch (message.type ?? message.role) {
    case 'ai':
    case 'assistant':
      return new AIMessage(fields);
    case 'system':
      return new SystemMessage(fields);
    default:
      return new HumanMessage(fields);
  }
}
