import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { StateSnapshot } from '@langchain/langgraph';
import type { Message, Run } from '@contracts/deployment';
import type { RunRecord } from '../store/records';
import { toForeignJson } from './foreign-json';
import { isRecord } from './json-contains';

interface ThreadState {
  values: Record<string, unknown>;
  next: string[];
  tasks: Record<string, unknown>[];
  checkpoint: ReturnType<typeof checkpointOf>;
  metadata: unknown;
  created_at: string | null;
  parent_checkpoint: ReturnType<typeof checkpointOf>;
  interrupts?: unknown[];
}

/** A task's error as the official server words it: the message only. */
function errorMessage(error: unknown): string | null {
  if (error === undefined || error === null) return null;
  return error instanceof Error ? error.message : JSON.stringify(error);
}

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

/**
 * State values with messages serialized; other channels are passed as they are. A loaded
 * graph's values (`foreign`) are written as the official JS server writes them.
 */
export function serializeValues(values: unknown, foreign = false): Record<string, unknown> {
  if (foreign) {
    const json = toForeignJson(values);
    return isRecord(json) ? json : {};
  }
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

const isSnapshot = (state: unknown): state is StateSnapshot =>
  isRecord(state) && 'values' in state && 'next' in state;

/**
 * `GET /threads/{id}/state`: the LangGraph API's ThreadState. A task's `checkpoint` is that of
 * its subgraph, `state` the subgraph's state when it was asked for, as the official server has.
 */
export function serializeState(snapshot: StateSnapshot, foreign = false): ThreadState {
  return {
    values: serializeValues(snapshot.values, foreign),
    next: snapshot.next,
    tasks: snapshot.tasks.map((task) => ({
      id: task.id,
      name: task.name,
      error: errorMessage(task.error),
      interrupts: toForeignJson(task.interrupts),
      ...(task.path && { path: task.path }),
      checkpoint:
        isRecord(task.state) && 'configurable' in task.state
          ? (task.state.configurable ?? null)
          : null,
      state: isSnapshot(task.state) ? serializeState(task.state, foreign) : null,
      result: toForeignJson(task.result),
    })),
    checkpoint: checkpointOf(snapshot.config),
    metadata: snapshot.metadata ?? {},
    created_at: snapshot.createdAt ?? null,
    parent_checkpoint: checkpointOf(snapshot.parentConfig),
    // The Python platform's field; the official JS server, whose shape a loaded graph gets, has none.
    ...(!foreign && { interrupts: [] }),
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
