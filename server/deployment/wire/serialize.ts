import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { StateSnapshot } from '@langchain/langgraph';
import type { Message, Run } from '@contracts/deployment';
import type { RunRecord } from '../store/run-store';

/** A LangChain message as the LangGraph API sends it: `type`, `content` and the kind's fields. */
export function serializeMessage(message: BaseMessage): Message {
  const base = {
    id: message.id ?? null,
    content: message.content,
    name: message.name ?? null,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  };
  if (AIMessage.isInstance(message)) {
    return {
      ...base,
      type: 'ai',
      tool_calls: message.tool_calls ?? [],
      invalid_tool_calls: message.invalid_tool_calls ?? [],
      usage_metadata: message.usage_metadata ?? null,
    };
  }
  if (ToolMessage.isInstance(message)) {
    return { ...base, type: 'tool', tool_call_id: message.tool_call_id, status: message.status };
  }
  return { ...base, type: message.getType() === 'system' ? 'system' : 'human' };
}

/** State values with messages serialized; other channels are passed as they are. */
export function serializeValues(values: unknown): Record<string, unknown> {
  if (typeof values !== 'object' || values === null) return {};
  const { messages, ...rest } = values as { messages?: BaseMessage[] };
  return messages ? { ...rest, messages: messages.map(serializeMessage) } : rest;
}

/** A config's checkpoint as the API names it (`{thread_id, checkpoint_ns, checkpoint_id, ...}`). */
export function checkpointOf(config: StateSnapshot['config'] | undefined) {
  const configurable = config?.configurable;
  if (!configurable?.checkpoint_id) return null;
  return {
    thread_id: String(configurable.thread_id),
    checkpoint_ns: String(configurable.checkpoint_ns ?? ''),
    checkpoint_id: String(configurable.checkpoint_id),
    checkpoint_map: null,
  };
}

/** `GET /threads/{id}/state`: the LangGraph API's ThreadState. */
export function serializeState(snapshot: StateSnapshot) {
  return {
    values: serializeValues(snapshot.values),
    next: snapshot.next,
    tasks: snapshot.tasks.map((task) => ({
      id: task.id,
      name: task.name,
      error: task.error === undefined ? null : String(task.error),
      interrupts: [],
      checkpoint: null,
      state: null,
    })),
    checkpoint: checkpointOf(snapshot.config),
    metadata: snapshot.metadata ?? {},
    created_at: snapshot.createdAt ?? null,
    parent_checkpoint: checkpointOf(snapshot.parentConfig),
    interrupts: [],
  };
}

/** The wire run: the SDK's `Run` plus `kwargs` (its input), as LangGraph Platform sends it. */
export function serializeRun(run: RunRecord): Run {
  return {
    run_id: run.run_id,
    thread_id: run.thread_id,
    assistant_id: run.assistant_id,
    created_at: run.created_at,
    updated_at: run.updated_at,
    status: run.status,
    metadata: run.metadata,
    multitask_strategy: run.multitask_strategy,
    kwargs: { input: run.input },
    ...(run.error === null ? {} : { error: run.error }),
  };
}
